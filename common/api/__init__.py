"""The API plumbing every app's views share: who calls (auth), strict input fields, the JSON parser, the schema
class and the error shape."""

"""What every app shares and no app owns (docs/ARCHITECTURE.md, "common/"): errors, the actor, bulk writes, the
API's plumbing, live parts and ETags, the cache, rate limits, middleware and URL converters.

common/ imports no app and not the configuration (an import-linter contract); the apps import it.
"""

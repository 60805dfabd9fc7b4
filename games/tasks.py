"""Celery tasks of the games app."""

from celery import shared_task


@shared_task
def ping() -> str:
    """Answer "pong": proves that a task reaches a worker (or runs eagerly) and that its result comes back."""
    return "pong"

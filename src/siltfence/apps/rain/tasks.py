"""Background work of the rain record, run by the database-backed worker
(``manage.py db_worker``): importing a rain file too large to import while the page waits."""

from __future__ import annotations

from django.tasks import task


@task()
def rain_import_task(job_id: int) -> str:
    """Import the file of a queued ``RainImportJob``; a job already taken, done or refused
    is left as it is. Returns the job's status."""
    from siltfence.apps.rain.jobs import rain_import_job_run

    return rain_import_job_run(job_id=job_id)

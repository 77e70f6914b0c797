"""Running siltfence on a server: backups of the database and the uploads, the health check."""

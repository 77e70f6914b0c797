"""Parts of the demo loader (`manage.py demo_load`), one module per app's records."""

"""Tools run from the repository, with siltfence installed, never served (decision 40):

- ``python -m tools.demo_load``: the demo village (``make run``, ``make dev``);
- ``python -m tools.demo_code USERNAME``: a demo official's sign-in code (``make demo-code``);
- ``python -m tools.scale --permits N ...``: a county at scale (``make bench``).

They import the ``siltfence`` package, which never imports them: they are not in the
served settings' ``INSTALLED_APPS``, not in the wheel, and not on gunicorn's path.
"""

"""``python -m tools.scale --permits 100000 ...``: see ``tools.scale.command``."""

from tools.scale.command import run

run()

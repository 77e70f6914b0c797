"""siltfence: construction-site erosion control ordinances as code."""

__version__ = "0.1.0"

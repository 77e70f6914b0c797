"""The fee arithmetic lives in ``siltfence.core.fees`` (permits works out a draft's fee,
and sits below payments); ``schedule_fee`` stays importable from here for web's portal."""

from siltfence.core.fees import schedule_fee

__all__ = ["schedule_fee"]

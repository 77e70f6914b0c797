"""What a United States mailing address, a phone number and an email address look like,
for the notices a village mails: the office's own (``jurisdiction.yaml``) and the parties'
(an application's). Pure: no Django."""

from __future__ import annotations

import re

# The two-letter codes the post office reads: the states, the District of Columbia, the
# territories and the military post offices.
US_STATES = frozenset(
    {
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "DC",
        "FL",
        "GA",
        "HI",
        "ID",
        "IL",
        "IN",
        "IA",
        "KS",
        "KY",
        "LA",
        "ME",
        "MD",
        "MA",
        "MI",
        "MN",
        "MS",
        "MO",
        "MT",
        "NE",
        "NV",
        "NH",
        "NJ",
        "NM",
        "NY",
        "NC",
        "ND",
        "OH",
        "OK",
        "OR",
        "PA",
        "RI",
        "SC",
        "SD",
        "TN",
        "TX",
        "UT",
        "VT",
        "VA",
        "WA",
        "WV",
        "WI",
        "WY",
        "AS",
        "GU",
        "MP",
        "PR",
        "VI",
        "AA",
        "AE",
        "AP",
    }
)
# Five digits, or ZIP+4 (written with a hyphen, or as nine digits).
ZIP_CODE = re.compile(r"^\d{5}(-?\d{4})?$")
# A North American number, with an extension if any: 608-555-0100, (608) 555-0100 x12.
PHONE = re.compile(r"^(\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}( ?(ext\.?|x) ?\d{1,6})?$")
EMAIL = re.compile(r"^[^@\s]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,}$")
# A USPS certified mail number: 20 to 22 digits (spaces, as printed on the receipt, allowed).
CERTIFIED_NUMBER = re.compile(r"^\d{20,22}$")

STREET_MAX = 200
CITY_MAX = 100
NAME_MAX = 200
PHONE_MAX = 40
EMAIL_MAX = 254


def zip_written(value: str) -> str:
    """A ZIP code as the envelope shows it: 12345 or 12345-6789."""
    digits = value.replace("-", "")
    return digits if len(digits) == 5 else f"{digits[:5]}-{digits[5:]}"

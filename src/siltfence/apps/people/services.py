"""Changes to a village's people: add a person to a role, change a term, end a membership
(decision 36).

Each service checks itself that the acting person is staff of that village (a view's check
is not relied on), validates before it writes, runs in one transaction, and appends the
change to the audit chain. Nothing here deletes an account or a membership: an ended
membership keeps its row, and what the person did stays on the record, pointing at them.

The sentences a refusal shows are the module constants below; each refusal names its field
(``MembershipRefused.field``), which the page puts in front of it.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from siltfence.apps.accounts.models import BoardSeat, Membership, Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.accounts.selectors import current_staff_count
from siltfence.apps.audit.chain import event_record
from siltfence.core.errors import SiltfenceError
from siltfence.presentation.today import village_today

NAME_MAX_LENGTH = 150
EMAIL_MAX_LENGTH = 254

NOT_STAFF = "only the administering authority of {village} may change its people"
ROLE_UNKNOWN = "choose staff, inspector or appeals board member"
PERSON_OR_NEW = (
    "give an existing account's username or email, or a new account's username, name and "
    "email, not both"
)
PERSON_MISSING = (
    "give an existing account's username or email, or fill in a new account's username, "
    "name and email"
)
PERSON_UNKNOWN = "no account has the username or email {given}"
PERSON_AMBIGUOUS = "more than one account uses the email {given}; give the username instead"
PERSON_INACTIVE = "the account {given} is turned off; an administrator must turn it on first"
USERNAME_BAD = (
    "a username is 1 to 150 letters, digits and the characters @ . + - _ (no spaces); got {given}"
)
USERNAME_TAKEN = "the username {given} is taken; to add that person, give it as an existing account"
NAME_MISSING = "give the person's {which} name (at most 150 characters)"
EMAIL_BAD = "give an email address like name@example.org; got {given}"
EMAIL_TAKEN = (
    "an account with the email {given} exists already ({username}); give it as an existing account"
)
ALREADY_MEMBER = "{person} is already {role} of {village}"
ALREADY_MEMBER_TERM_OVER = (
    "{person} is already {role} of {village}, whose term ended on {end}; change that term instead"
)
TERM_ORDER = "the term's last day ({end}) comes before its first day ({start})"
TERM_OVER = (
    "the term's last day ({end}) has passed already ({village} today is {today}); to end "
    "someone's access now, remove them"
)
BOARD_TERM = "give the last day of the appeals board member's term"
SEAT_UNKNOWN = "choose member, chair, first alternate or second alternate"
SEAT_NOT_BOARD = "only an appeals board member has a seat on the board (chair or alternate)"
SEAT_NOT_IN_DATA = (
    "{village}'s board has {alternates} alternate{plural} (its data: board.alternates in "
    "jurisdiction.yaml); there is no {seat}"
)
SEAT_TAKEN = "{person} is the board's {seat} already for {term}; change their seat or term first"
MEMBERSHIP_UNKNOWN = "no such membership in {village}"
MEMBERSHIP_ENDED = "this membership was ended already, on {when}"
LAST_STAFF = (
    "{person} is the last staff member of {village}: add another staff member first, so "
    "that someone can still run the village's program"
)
SELF_CONFIRM = (
    "this is your own {role} role in {village}: tick the box to confirm that you remove "
    "yourself (you lose this access at once)"
)
REASON_TOO_LONG = "the reason is at most {limit} characters"
REASON_MAX_LENGTH = 300
LINK_NOT_NEEDED = "{person} has chosen a password already; they can reset it from sign-in"


class MembershipRefused(SiltfenceError):
    """A change of a village's people was refused; nothing was written."""


def _refuse(message: str, field: str) -> MembershipRefused:
    return MembershipRefused(message, field=field)


def _shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _staff_check(actor: Any, village_id: str) -> None:
    if village_id not in village_ids(actor, Role.STAFF):
        raise _refuse(NOT_STAFF.format(village=village_id), "village")


def _village_name(village_id: str) -> str:
    from siltfence.apps.permits.models import Village

    return str(Village.objects.filter(pk=village_id).values_list("name", flat=True).first() or "")


def _role(role: object) -> Role:
    if isinstance(role, str) and role in Role.values:
        return Role(role)
    raise _refuse(ROLE_UNKNOWN, "role")


def _clean_reason(reason: str) -> str:
    text = (reason or "").strip()
    if len(text) > REASON_MAX_LENGTH or "\x00" in text:
        raise _refuse(REASON_TOO_LONG.format(limit=REASON_MAX_LENGTH), "reason")
    return text


def _term_check(
    *,
    village_id: str,
    role: Role,
    start: datetime.date | None,
    end: datetime.date | None,
) -> None:
    if role == Role.APPEALS_BOARD and end is None:
        raise _refuse(BOARD_TERM, "term_end")
    if start is not None and end is not None and end < start:
        raise _refuse(TERM_ORDER.format(start=start, end=end), "term_end")
    today = village_today(village_id)
    if end is not None and end < today:
        raise _refuse(
            TERM_OVER.format(end=end, today=today, village=_village_name(village_id)), "term_end"
        )


def _term_words(start: datetime.date | None, end: datetime.date | None) -> str:
    return f"{start or '…'} to {end or '…'}" if start or end else "no term set"


def _seat_check(
    *,
    village_id: str,
    role: Role,
    seat: object,
    start: datetime.date | None,
    end: datetime.date | None,
    excluding: int | None = None,
) -> str:
    """A seat fits the role and the village's board: only a board member is chair or an
    alternate, an alternate the board's data has, and one chair, first and second alternate
    at a time (terms that overlap)."""
    if not isinstance(seat, str) or seat not in BoardSeat.values:
        raise _refuse(SEAT_UNKNOWN, "board_seat")
    if seat == BoardSeat.MEMBER:
        return seat
    if role != Role.APPEALS_BOARD:
        raise _refuse(SEAT_NOT_BOARD, "board_seat")
    from siltfence.core.ordinance.loader import load

    alternates = load(village_id).board.alternates
    rank = {BoardSeat.FIRST_ALTERNATE: 1, BoardSeat.SECOND_ALTERNATE: 2}.get(BoardSeat(seat), 0)
    if rank > alternates:
        raise _refuse(
            SEAT_NOT_IN_DATA.format(
                village=_village_name(village_id),
                alternates=alternates,
                plural="" if alternates == 1 else "s",
                seat=BoardSeat(seat).label.lower(),
            ),
            "board_seat",
        )
    holders = Membership.all_objects.filter(
        village_id=village_id, role=Role.APPEALS_BOARD, board_seat=seat, ended_at__isnull=True
    ).select_related("user")
    for other in holders.exclude(pk=excluding) if excluding else holders:
        if (other.term_end is None or start is None or other.term_end >= start) and (
            other.term_start is None or end is None or other.term_start <= end
        ):
            raise _refuse(
                SEAT_TAKEN.format(
                    person=other.user.get_username(),
                    seat=BoardSeat(seat).label.lower(),
                    term=_term_words(other.term_start, other.term_end),
                ),
                "board_seat",
            )
    return seat


def _snapshot(m: Membership) -> dict[str, Any]:
    return {
        "user": m.user.get_username(),
        "user_id": m.user_id,
        "role": m.role,
        "board_seat": m.board_seat,
        "term_start": m.term_start.isoformat() if m.term_start else None,
        "term_end": m.term_end.isoformat() if m.term_end else None,
        "ended_at": m.ended_at.isoformat() if m.ended_at else None,
    }


def _existing_account(given: str) -> Any:
    users = get_user_model().objects
    found = list(users.filter(username=given)[:1]) or list(users.filter(username__iexact=given)[:2])
    if not found and "@" in given:
        found = list(users.filter(email__iexact=given)[:2])
        if len(found) > 1:
            raise _refuse(PERSON_AMBIGUOUS.format(given=_shown(given)), "person")
    if len(found) != 1:
        raise _refuse(PERSON_UNKNOWN.format(given=_shown(given)), "person")
    if not found[0].is_active:
        raise _refuse(PERSON_INACTIVE.format(given=_shown(given)), "person")
    return found[0]


def _new_account_check(*, username: str, first_name: str, last_name: str, email: str) -> None:
    if not username or len(username) > NAME_MAX_LENGTH:
        raise _refuse(USERNAME_BAD.format(given=_shown(username)), "username")
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        raise _refuse(USERNAME_BAD.format(given=_shown(username)), "username") from None
    for which, value, field in (
        ("first", first_name, "first_name"),
        ("last", last_name, "last_name"),
    ):
        if not value or len(value) > NAME_MAX_LENGTH or "\x00" in value:
            raise _refuse(NAME_MISSING.format(which=which), field)
    try:
        if len(email) > EMAIL_MAX_LENGTH:
            raise ValidationError("too long")
        validate_email(email)
    except ValidationError:
        raise _refuse(EMAIL_BAD.format(given=_shown(email)), "email") from None
    users = get_user_model().objects
    if users.filter(username__iexact=username).exists():
        raise _refuse(USERNAME_TAKEN.format(given=_shown(username)), "username")
    holder = users.filter(email__iexact=email).first()
    if holder is not None:
        raise _refuse(
            EMAIL_TAKEN.format(given=_shown(email), username=holder.get_username()), "email"
        )


def _link_email(*, user: Any, village_id: str, role: Role, actor: Any, site: str) -> None:
    """The email with the link to choose a password: Django's password-reset token, which
    the password-reset page accepts, and which stops working once a password is chosen."""
    from siltfence.apps.outbox.services import message_record

    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    link = site + reverse("web:password-reset-confirm", kwargs={"uidb64": uid, "token": token})
    sign_in = site + reverse("web:login")
    by = actor.get_full_name() or actor.get_username()
    body = (
        f"{by} added you to siltfence as {role.label.lower()} of {_village_name(village_id)}.\n\n"
        f'Your username is "{user.get_username()}". To choose your password, open this link '
        f"(it works once, for one day):\n\n{link}\n\n"
        f"Then sign in at {sign_in}. At your first sign-in you set up an authenticator app "
        "on your phone: village officials sign in with their password and a 6-digit code "
        "from it.\n\nIf the link has run out, ask the village office to send a new one."
    )
    message_record(
        kind="account_new",
        to=user.email,
        user=user,
        village_id=village_id,
        subject="Choose your siltfence password",
        body=body,
        secret=True,
    )


def membership_add(
    *,
    actor: Any,
    village_id: str,
    role: str,
    person: str = "",
    username: str = "",
    first_name: str = "",
    last_name: str = "",
    email: str = "",
    term_start: datetime.date | None = None,
    term_end: datetime.date | None = None,
    board_seat: str = BoardSeat.MEMBER,
    site: str,
) -> Membership:
    """Give a person a role in the village: an existing account (``person``, its username
    or email) or a new one (``username``, names and ``email``), which gets no usable
    password and an email with a link to choose one (recorded in the outbox). ``site`` is
    the address the link starts with (``https://village.example``). A new official is asked
    to set up an authenticator app at their first sign-in (``second_factor_required``)."""
    _staff_check(actor, village_id)
    person = (person or "").strip()
    username = (username or "").strip()
    first_name, last_name = (first_name or "").strip(), (last_name or "").strip()
    email = (email or "").strip()
    new = any((username, first_name, last_name, email))
    if person and new:
        raise _refuse(PERSON_OR_NEW, "person")
    if not person and not new:
        raise _refuse(PERSON_MISSING, "person")
    chosen = _role(role)
    _term_check(village_id=village_id, role=chosen, start=term_start, end=term_end)
    seat = _seat_check(
        village_id=village_id, role=chosen, seat=board_seat, start=term_start, end=term_end
    )
    if new:
        _new_account_check(
            username=username, first_name=first_name, last_name=last_name, email=email
        )
    try:
        with transaction.atomic():
            if new:
                user = get_user_model().objects.create_user(
                    username=username, email=email, first_name=first_name, last_name=last_name
                )  # no password given: an unusable one
            else:
                user = _existing_account(person)
            user = get_user_model().objects.select_for_update().get(pk=user.pk)
            open_row = Membership.all_objects.filter(
                user=user, village_id=village_id, role=chosen, ended_at__isnull=True
            ).first()
            if open_row is not None:
                words = {
                    "person": user.get_username(),
                    "role": chosen.label.lower(),
                    "village": _village_name(village_id),
                }
                today = village_today(village_id)
                if open_row.term_end is not None and open_row.term_end < today:
                    raise _refuse(
                        ALREADY_MEMBER_TERM_OVER.format(**words, end=open_row.term_end), "role"
                    )
                raise _refuse(ALREADY_MEMBER.format(**words), "role")
            membership = Membership.all_objects.create(
                user=user,
                village_id=village_id,
                role=chosen,
                term_start=term_start,
                term_end=term_end,
                board_seat=seat,
                added_at=timezone.now(),
                added_by=actor,
            )
            if new:
                _link_email(user=user, village_id=village_id, role=chosen, actor=actor, site=site)
            event_record(
                actor=actor,
                entity="membership",
                entity_id=membership.pk,
                action="membership_add",
                village=village_id,
                reason=(
                    f"{user.get_username()} added as {chosen.label.lower()}"
                    + ("; new account, sent a link to choose a password" if new else "")
                ),
                after={**_snapshot(membership), "new_account": new},
            )
    except IntegrityError:  # the same account made, or the same person added, twice at once
        if new:
            raise _refuse(USERNAME_TAKEN.format(given=_shown(username)), "username") from None
        raise _refuse(
            ALREADY_MEMBER.format(
                person=person, role=chosen.label.lower(), village=_village_name(village_id)
            ),
            "role",
        ) from None
    return membership


def _locked(actor: Any, village_id: str, membership_id: int) -> Membership:
    _staff_check(actor, village_id)
    membership = (
        Membership.all_objects.select_for_update()
        .select_related("user")
        .filter(pk=membership_id, village_id=village_id)
        .first()
    )
    if membership is None:
        raise _refuse(MEMBERSHIP_UNKNOWN.format(village=_village_name(village_id)), "membership")
    if membership.ended_at is not None:
        raise _refuse(MEMBERSHIP_ENDED.format(when=membership.ended_at.date()), "membership")
    return membership


def _staff_kept(membership: Membership, village_id: str) -> None:
    """Refuse when this membership is the village's last staff membership giving access."""
    if membership.role != Role.STAFF:
        return
    # Every staff membership of the village is locked, so two removals at once cannot
    # both see the other one's staff member still there.
    list(
        Membership.all_objects.select_for_update()
        .filter(village_id=village_id, role=Role.STAFF, ended_at__isnull=True)
        .values_list("pk", flat=True)
    )
    if current_staff_count(village_id, excluding=membership.pk) == 0:
        raise _refuse(
            LAST_STAFF.format(
                person=membership.user.get_username(), village=_village_name(village_id)
            ),
            "membership",
        )


def membership_term_change(
    *,
    actor: Any,
    village_id: str,
    membership_id: int,
    term_start: datetime.date | None,
    term_end: datetime.date | None,
    reason: str = "",
    board_seat: str | None = None,
) -> Membership:
    """Set the first and last days of a membership's term (either may be empty, except an
    appeals board member's last day), and a board member's seat (``board_seat``; None keeps
    it). A term changed so that it no longer covers today ends the access, so the last
    staff member's term cannot be changed that way."""
    text = _clean_reason(reason)
    with transaction.atomic():
        membership = _locked(actor, village_id, membership_id)
        _term_check(
            village_id=village_id, role=Role(membership.role), start=term_start, end=term_end
        )
        seat = _seat_check(
            village_id=village_id,
            role=Role(membership.role),
            seat=membership.board_seat if board_seat is None else board_seat,
            start=term_start,
            end=term_end,
            excluding=membership.pk,
        )
        before = _snapshot(membership)
        today = village_today(village_id)
        covers_today = (term_start is None or term_start <= today) and (
            term_end is None or term_end >= today
        )
        if not covers_today:
            _staff_kept(membership, village_id)
        membership.term_start, membership.term_end = term_start, term_end
        membership.board_seat = seat
        membership.save(update_fields=["term_start", "term_end", "board_seat"])
        event_record(
            actor=actor,
            entity="membership",
            entity_id=membership.pk,
            action="membership_term_change",
            village=village_id,
            reason=text or f"term of {membership.user.get_username()} changed",
            before=before,
            after=_snapshot(membership),
        )
    return membership


def membership_end(
    *,
    actor: Any,
    village_id: str,
    membership_id: int,
    confirm_self: bool = False,
    reason: str = "",
) -> Membership:
    """End a membership now: the person loses that role's access at once. The row stays,
    with when and by whom, and so does everything the person did. The village's last staff
    member is not removed, and removing one's own role needs ``confirm_self``."""
    text = _clean_reason(reason)
    with transaction.atomic():
        membership = _locked(actor, village_id, membership_id)
        if membership.user_id == actor.pk and not confirm_self:
            raise _refuse(
                SELF_CONFIRM.format(
                    role=Role(membership.role).label.lower(), village=_village_name(village_id)
                ),
                "confirm_self",
            )
        _staff_kept(membership, village_id)
        before = _snapshot(membership)
        membership.ended_at = timezone.now()
        membership.ended_by = actor
        membership.save(update_fields=["ended_at", "ended_by"])
        event_record(
            actor=actor,
            entity="membership",
            entity_id=membership.pk,
            action="membership_end",
            village=village_id,
            reason=text
            or f"{membership.user.get_username()} removed as {membership.get_role_display()}",
            before=before,
            after={**_snapshot(membership), "ended_by": actor.get_username()},
        )
    return membership


def account_link_send(*, actor: Any, village_id: str, membership_id: int, site: str) -> None:
    """Send again the link to choose a password, to a member who has not chosen one yet
    (the first link works for one day)."""
    with transaction.atomic():
        membership = _locked(actor, village_id, membership_id)
        user = membership.user
        if user.has_usable_password():
            raise _refuse(LINK_NOT_NEEDED.format(person=user.get_username()), "membership")
        _link_email(
            user=user, village_id=village_id, role=Role(membership.role), actor=actor, site=site
        )

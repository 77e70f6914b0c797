"""Violations recorded, public complaints and their review, and a violation's photos."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from siltfence.apps.accounts.models import Role
from siltfence.apps.accounts.rules import village_ids
from siltfence.apps.enforcement import forms as f
from siltfence.apps.enforcement import services as s
from siltfence.apps.enforcement.models import ComplaintSlot, Violation
from siltfence.apps.enforcement.selectors import (
    permit_numbered,
    villages_by_name,
    violation_photos_visible_to,
    violations_reviewable_by,
)
from siltfence.apps.enforcement.views import said
from siltfence.apps.permits.models import Village
from siltfence.apps.permits.uploads import download_name
from siltfence.core.errors import SiltfenceError
from siltfence.core.ordinance.loader import load
from siltfence.presentation.forms import first_error

COMPLAINTS_PER_HOUR = 5


COMPLAINT_SESSION_KEY = "siltfence_complaints"


def _photos(request: HttpRequest) -> list[s.Photo]:
    return [
        s.Photo(name=u.name or "photo", content=u.read(), content_type=u.content_type or "")
        for u in request.FILES.getlist("photos")[: s.MAX_PHOTOS + 1]
    ]


@login_required
@require_http_methods(["GET", "POST"])
def violation_new(request: HttpRequest) -> HttpResponse:
    villages = village_ids(request.user, Role.STAFF, Role.INSPECTOR)
    if not villages:
        raise PermissionDenied("Only village staff and inspectors record violations.")
    village_id = request.POST.get("village") or request.GET.get("village") or sorted(villages)[0]
    if village_id not in villages:
        raise Http404
    village = get_object_or_404(Village, pk=village_id)
    form = f.ViolationForm(
        request.POST or None,
        initial={"party_role": "unknown", "permit": str(request.GET.get("permit", ""))[:30]},
    )
    form.fields["provision"].label = f"Section of Ch. {load(village.id).chapter} broken"
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            data = form.cleaned_data
            permit = None
            if data["permit"]:
                permit = permit_numbered(village_id=village.id, number=data["permit"].strip())
                if permit is None:
                    messages.error(
                        request,
                        f"Permit number: {village.name} has no permit {data['permit'][:30]}",
                    )
            if permit is not None or not data["permit"]:
                try:
                    violation = s.violation_record(
                        village=village,
                        recorded_by=request.user,
                        source=data["source"],
                        description=data["description"],
                        provision=data["provision"],
                        days_from=data["days_from"],
                        days_to=data["days_to"],
                        at=timezone.now(),
                        permit=permit,
                        address=data["address"],
                        party_name=data["party_name"],
                        party_role=data["party_role"],
                        latitude=data["latitude"],
                        longitude=data["longitude"],
                        photos=_photos(request),
                    )
                except SiltfenceError as exc:
                    messages.error(request, said(exc, form))
                else:
                    messages.success(request, "Violation recorded.")
                    return redirect("enforcement:case", pk=violation.case_id)
    return render(
        request,
        "enforcement/violation_new.html",
        {"form": form, "village": village, "ordinance": load(village.id)},
    )


@login_required
@require_POST
def complaint_review(request: HttpRequest, pk: int) -> HttpResponse:
    violation = get_object_or_404(violations_reviewable_by(user=request.user), pk=pk)
    form = f.ReviewForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("enforcement:cases")
    data = form.cleaned_data
    permit = None
    if data["permit"]:
        permit = permit_numbered(village_id=violation.village_id, number=data["permit"].strip())
        if permit is None:
            messages.error(request, f"Permit number: there is no permit {data['permit'][:30]}")
            return redirect("enforcement:cases")
    try:
        reviewed = s.violation_review(
            violation=violation,
            staff=request.user,
            at=timezone.now(),
            found=data["finding"] == "found",
            note=data["note"],
            provision=data["provision"],
            permit=permit,
            party_name=data["party_name"],
            party_role=data["party_role"],
        )
    except SiltfenceError as exc:
        messages.error(request, said(exc))
        return redirect("enforcement:cases")
    if reviewed.case_id:
        messages.success(request, "Violation found and put on the site's record.")
        return redirect("enforcement:case", pk=reviewed.case_id)
    messages.success(request, "Report dismissed.")
    return redirect("enforcement:cases")


@login_required
@require_GET
def photo(request: HttpRequest, pk: int) -> HttpResponseBase:
    stored = get_object_or_404(violation_photos_visible_to(user=request.user), pk=pk)
    response = FileResponse(
        stored.file.open("rb"),
        as_attachment=True,
        # Saved under the type found in its contents: "a.png.html" holding a PNG is "a.png.png".
        filename=download_name(stored.original_name, stored.content_type),
        content_type=stored.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _client_key(request: HttpRequest) -> str:
    """Whom the hourly bound counts: the client's address as the trusted proxies report
    it (the same reading as login throttling), else the connection's."""
    from siltfence.apps.accounts.client_ip import client_ip

    return "complaints:" + (client_ip(request) or "unknown")


def _complaint_slot(request: HttpRequest) -> ComplaintSlot | None:
    """Take one of this address's complaint slots of the current clock hour, or None when
    all are taken. Shared by every worker process through the database."""
    return ComplaintSlot.take(_client_key(request), COMPLAINTS_PER_HOUR)


@require_http_methods(["GET", "POST"])
def complaint(request: HttpRequest) -> HttpResponse:
    """The public complaint form: no login; a place (map, address, or latitude and
    longitude, all without JavaScript), what was seen, photos, and how to reach the
    person (kept private)."""
    villages = list(villages_by_name())
    village_id = request.POST.get("village") or request.GET.get("village") or ""
    form = f.ComplaintForm(request.POST or None)
    chosen = next((v for v in villages if v.id == village_id), None)
    if request.method == "POST":
        if chosen is None:
            messages.error(request, "Village: choose the village where the site is")
        elif not form.is_valid():
            messages.error(request, first_error(form))
        elif (slot := _complaint_slot(request)) is None:
            messages.error(
                request,
                f"Form: at most {COMPLAINTS_PER_HOUR} reports an hour can be sent from one "
                "place; please call the village office instead",
            )
        else:
            data = form.cleaned_data
            try:
                violation = s.complaint_file(
                    village=chosen,
                    description=data["description"],
                    at=timezone.now(),
                    address=data["address"],
                    latitude=data["latitude"],
                    longitude=data["longitude"],
                    seen_on=data["seen_on"],
                    name=data["name"],
                    email=data["email"],
                    phone=data["phone"],
                    photos=_photos(request),
                )
            except SiltfenceError as exc:
                slot.delete()  # a report refused does not count
                messages.error(request, said(exc, form))
            else:
                mine = request.session.get(COMPLAINT_SESSION_KEY, [])
                request.session[COMPLAINT_SESSION_KEY] = [*mine[-9:], violation.pk]
                return redirect("enforcement:complaint-received", pk=violation.pk)
    from django.conf import settings

    centres = {v.id: list(load(v.id).map_centre) for v in villages}
    return render(
        request,
        "enforcement/complaint.html",
        {
            "form": form,
            "villages": villages,
            "chosen": chosen,
            "centres": centres,
            "tile_url": settings.SILTFENCE_TILE_URL,
            "tile_attribution": settings.SILTFENCE_TILE_ATTRIBUTION,
        },
    )


def _own_complaint(request: HttpRequest, pk: int) -> Violation:
    if pk not in request.session.get(COMPLAINT_SESSION_KEY, []):
        raise Http404
    return get_object_or_404(Violation, pk=pk, source="complaint")


@require_GET
def complaint_received(request: HttpRequest, pk: int) -> HttpResponse:
    violation = _own_complaint(request, pk)
    return render(
        request,
        "enforcement/complaint_received.html",
        {"violation": violation, "ordinance": load(violation.village_id)},
    )


@require_GET
def complaint_receipt(request: HttpRequest, pk: int) -> HttpResponse:
    from siltfence.apps.enforcement.documents import complaint_pdf

    violation = _own_complaint(request, pk)
    response = HttpResponse(complaint_pdf(violation), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="complaint-C-{violation.pk}.pdf"'
    return response

"""The compliance console (Cumplimiento, /compliance/): the exclusion lists
from a page, not only the API (issue 25, item 2).

The director uploads a version of a list (Ley 10/2010 art. 7.5 and the
registers' rules: RGIAJ, Galicia's register of banned persons; PT:
Decreto-Lei 422/89 arts. 36-38), sees the versions held and which one each
check reads, resolves the possible matches the doors refused, and reads the
refused attempts of the last days. The inspector reads the same page and
changes nothing (floor.domain.reads, ``compliance``). The jefe and the cage
take a self-exclusion at their own consoles (the sector's Players panel, the
cage's player card), where they find the patron.

The upload runs floor.compliance.exclusions.import_list, the API's path: the
same mapping (FLOOR_EXCLUSION_MAPPING, or the one typed), the same checks;
every bad file is answered on the page, in the director's language, never a
500, and a refused upload records nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import uuid4

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from floor.api.exclusion_views import MAX_FILE_BYTES
from floor.compliance import exclusions, standing
from floor.forms import CommandForm
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.web.access import console_read
from floor.kernel.web.gateway import ServiceUnavailable, actor_for
from floor.messages import STATUS_BY_KIND, describe, message_for
from floor.models import ExclusionList
from floor.runtime import floor_app
from floor.selectors.players import players_by_id

# The refused attempts the page lists: the last days' (the register has them all).
RECENT_DAYS = 7
SOURCE_LABELS = {
    ExclusionList.RGIAJ: gettext_lazy("RGIAJ (Spain's register of gaming bans)"),
    ExclusionList.REGIONAL: gettext_lazy("A region's register"),
    ExclusionList.SRIJ: gettext_lazy("SRIJ (Portugal's access bans)"),
    ExclusionList.HOUSE: gettext_lazy("The house list (self-exclusions)"),
}
DOOR_LABELS = {
    "registration": gettext_lazy("registration"),
    "waiting_list": gettext_lazy("waiting list"),
    "seating": gettext_lazy("seating"),
    "cage": gettext_lazy("cage"),
}


class UploadListForm(CommandForm):
    """A version of a list, as the director uploads it: the list, its date,
    the file; the mapping blank is the room's (FLOOR_EXCLUSION_MAPPING)."""

    source = forms.ChoiceField(
        label=gettext_lazy("List"),
        choices=[(k, v) for k, v in SOURCE_LABELS.items() if k != ExclusionList.HOUSE],
    )
    region = forms.CharField(
        label=gettext_lazy("Region (a regional list)"), max_length=4, required=False
    )
    version = forms.DateField(
        label=gettext_lazy("The list's date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d"],
    )
    file = forms.FileField(label=gettext_lazy("CSV file"), max_length=200)
    mapping = forms.CharField(
        label=gettext_lazy("Columns (blank: the room's)"),
        max_length=300,
        required=False,
        widget=forms.TextInput(attrs={"size": 60}),
    )

    def clean_file(self):
        uploaded = self.cleaned_data["file"]
        if uploaded.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("The file is too large: at most %(most)s MB.")
                % {"most": MAX_FILE_BYTES // (1024 * 1024)}
            )
        return uploaded


def _upload(request: HttpRequest, form: UploadListForm) -> tuple[int, str | None]:
    """Runs the import: (the page's status, what the director reads when it
    worked); a refusal becomes the form's error."""
    if not form.is_valid():
        form.new_attempt()
        return 400, None
    data = form.cleaned_data
    try:
        mapping = exclusions.parse_mapping(data["mapping"]) if data["mapping"] else None
        outcome, read = exclusions.import_list(
            request.user,
            data["command_id"],
            source=data["source"],
            region=data["region"],
            version=data["version"].isoformat(),
            data=data["file"].read(),
            mapping=mapping,
        )
    except DomainError as refused:
        form.add_error(None, describe(refused))
        form.new_attempt()
        return STATUS_BY_KIND[refused.kind], None
    except ServiceUnavailable as unavailable:
        form.add_error(None, message_for(unavailable.code))
        return 503, None
    result = outcome.result
    said = _("Imported %(list)s: %(rows)s rows read, %(bad)s refused.") % {
        "list": f"{result['source']} {result['region']} {result['version']}".replace("  ", " "),
        "rows": result["rows"],
        "bad": result["bad_rows"],
    }
    if read.bad_lines:
        said += " " + _("Lines refused: %(lines)s.") % {
            "lines": ", ".join(map(str, read.bad_lines))
        }
    return 201, said


def _pending(region: str) -> list[dict[str, Any]]:
    found = standing.pending_possible_matches(region)
    names = players_by_id({p.player_id for p in found})
    return [
        {
            "pending": p,
            "player": names.get(p.player_id),
            "door": DOOR_LABELS.get(p.last.door, p.last.door),
            # The page's forms post without the consoles' script: each carries
            # its own command id (one per decision shown; a double submit is one).
            "clear_id": str(uuid4()),
            "exclude_id": str(uuid4()),
        }
        for p in found
    ]


def _recent(now) -> list[dict[str, Any]]:
    rows = standing.recent_refusals(now - timedelta(days=RECENT_DAYS))
    names = players_by_id({r.player_id for r in rows})
    return [
        {"row": r, "player": names.get(r.player_id), "door": DOOR_LABELS.get(r.door, r.door)}
        for r in rows
    ]


@console_read("compliance")
def compliance(request: HttpRequest) -> HttpResponse:
    """GET /compliance/: the lists held, the pending possible matches, the
    refused attempts of the last days; POST: the director's upload."""
    actor = actor_for(request.user)
    status, form = 200, None
    if request.method == "POST":
        # Who may is asked first: an inspector's upload is a 403 whatever its body.
        COMMANDS.role_for(actor, "import_exclusion_list")
        form = UploadListForm(request.POST, request.FILES)
        status, said = _upload(request, form)
        if said is not None:
            messages.success(request, said)
            return redirect("floor:compliance")
    may_import = COMMANDS.may(actor, COMMANDS.import_exclusion_list)
    if form is None and may_import:
        form = UploadListForm()
    app = floor_app()
    now = app.clock.now()
    start = (now - timedelta(days=RECENT_DAYS)).date().isoformat()
    context = {
        "lists": [
            {"held": held, "label": SOURCE_LABELS.get(held.source, held.source)}
            for held in standing.lists_held()
        ],
        "form": form if may_import else None,
        "mapping": settings.FLOOR_EXCLUSION_MAPPING,
        "pending": _pending(app.profile.exclusion_region),
        "may_resolve": COMMANDS.may(actor, COMMANDS.resolve_possible_exclusion),
        "recent": _recent(now),
        "recent_days": RECENT_DAYS,
        "report_csv": reverse("report-exclusion-refusals")
        + "?"
        + urlencode({"format": "csv", "from": start}),
        "back": reverse("floor:compliance"),
    }
    return render(request, "floor/compliance.html", context, status=status)

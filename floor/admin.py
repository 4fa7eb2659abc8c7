"""Staff without a shell: Django's admin, for the director (README, "Staff and users").

A casino's IT and its director create the staff's accounts, give them the
floor's roles, reset their passwords and lift login lockouts from a browser
(issue 20, "What a casino's IT deploys"). Django's admin does the work; this
module keeps it in its place:

- **Who enters**: the director, and a superuser (the very first account of a
  fresh install, ``manage.py createsuperuser``). The rule is declared with the
  others (floor.domain.reads, the ``staff`` resource); anyone else logged in
  gets the console's translated 403 page, and no one is asked for ``is_staff``
  (a director is a role of the floor, not a Django flag).
- **Roles are Django groups** (floor.kernel.web.gateway.actor_for; migration 0002): giving
  one is not an event of the floor, so the admin edits the groups itself. Every
  change of a user's roles is logged (``floor.staff``), naming who made it,
  besides the admin's own history (LogEntry).
- **A director makes no superuser**: the superuser, staff and permission
  fields are a superuser's only; a director gives the floor's roles, nothing
  else.
- **Lockouts** (django-axes' models, read-only): a lockout is lifted with the
  action "Lift the lockout", which goes through floor.logins.lift_lockout as the
  API's lift does (POST /api/auth/lockouts/lift/), so the log names the director.
"""

from __future__ import annotations

import logging
from typing import Any

from axes.admin import AccessAttemptAdmin, AccessFailureLogAdmin, AccessLogAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import Group, User
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from floor import logins
from floor.domain.reads import read_scopes
from floor.kernel.errors import DomainError
from floor.kernel.roles import Role
from floor.kernel.web.access import refused_page
from floor.kernel.web.gateway import actor_for

logger = logging.getLogger("floor.staff")

# The resource of floor.domain.reads whose readers may enter the admin.
STAFF = "staff"
# The roles the staff hold (the clock is the service's own: no one is given it;
# a player's sign-in is made at the desk and holds no other group, issue 24).
PERSON_ROLES = sorted(role.value for role in Role if role not in (Role.CLOCK, Role.PLAYER))


def manages_staff(user: Any) -> bool:
    """Whether ``user`` may enter the admin: a superuser, or a role reading ``staff``."""
    if not (user.is_active and user.is_authenticated):
        return False
    if user.is_superuser:
        return True
    try:
        read_scopes(actor_for(user), STAFF)
    except DomainError:
        return False
    return True


class FloorAdminSite(admin.AdminSite):
    """The admin at /admin/, entered by the director and superusers only."""

    site_header = _("Floor: staff and logins")
    site_title = _("Floor staff")
    index_title = _("Staff and logins")
    site_url = "/"

    def has_permission(self, request: HttpRequest) -> bool:
        return manages_staff(request.user)

    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        """One door for logging in (the console's, which counts wrong passwords);
        someone logged in without the role gets the console's 403, with its code."""
        if request.user.is_authenticated and not self.has_permission(request):
            try:
                read_scopes(actor_for(request.user), STAFF)
            except DomainError as refusal:
                return refused_page(request, refusal)
        next_url = request.GET.get("next") or self.index_url()
        if self.has_permission(request):
            return redirect(self.index_url())
        return redirect_to_login(next_url)

    def index_url(self) -> str:
        return reverse("admin:index", current_app=self.name)


site = FloorAdminSite(name="admin")


class StaffOnly:
    """A model's admin open to whoever enters the site (the director): the
    permissions are the site's rule, not Django's per-model ones, which no
    floor role holds."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return manages_staff(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return manages_staff(request.user)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return manages_staff(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return manages_staff(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return manages_staff(request.user)


def role_names(user: User) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))


class StaffCreationForm(UserAdmin.add_form):
    """A new user, never under a name the service itself acts as (the clock's
    deadlines are recorded as ``floor-clock``; a person so named would sign as it)."""

    def clean_username(self):
        from floor.application.clocks import CLOCK_ACTOR

        username = super().clean_username()
        if username.strip().lower() == CLOCK_ACTOR.username:
            raise forms.ValidationError(_("This name is the service's own: choose another."))
        return username


@admin.register(User, site=site)
class StaffAdmin(StaffOnly, UserAdmin):
    """Users and their floor roles (the groups), as the director manages them."""

    add_form = StaffCreationForm

    list_display = ("username", "first_name", "last_name", "roles", "is_active", "last_login")
    list_filter = ("groups", "is_active", "is_superuser")
    # A new user is given their roles on the same form.
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": ("username", "usable_password", "password1", "password2", "groups"),
            },
        ),
    )

    @admin.display(description=_("Roles"))
    def roles(self, user: User) -> str:
        return ", ".join(role_names(user))

    def get_fieldsets(self, request: HttpRequest, obj: Any = None):
        """A superuser's form is Django's; a director's leaves out what makes
        staff or superusers (a role of the floor gives no more than the floor)."""
        fieldsets = super().get_fieldsets(request, obj)
        if request.user.is_superuser or obj is None:
            return fieldsets
        return (
            (None, {"fields": ("username", "password")}),
            (_("Personal info"), {"fields": ("first_name", "last_name", "email")}),
            (_("Roles"), {"fields": ("is_active", "groups")}),
            (_("Important dates"), {"fields": ("last_login", "date_joined")}),
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None):
        fields = super().get_readonly_fields(request, obj)
        if obj is not None and not request.user.is_superuser:
            fields = (*fields, "last_login", "date_joined")
        return fields

    def formfield_for_manytomany(self, db_field, request: HttpRequest, **kwargs: Any):
        """The groups offered are the floor's roles, nothing else."""
        if db_field.name == "groups":
            kwargs["queryset"] = Group.objects.filter(name__in=PERSON_ROLES).order_by("name")
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """A superuser's account is changed by a superuser only."""
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Accounts are deactivated, not deleted: the journal names them."""
        return bool(request.user.is_superuser) and super().has_delete_permission(request, obj)

    def save_related(self, request: HttpRequest, form, formsets, change: bool) -> None:
        """Saves the roles, and logs any change of them with who made it."""
        user = form.instance
        before = role_names(user) if change else []
        super().save_related(request, form, formsets, change)
        after = role_names(user)
        if before != after:
            logger.warning(
                "roles of %s changed by %s: %s -> %s",
                user.get_username(),
                request.user.get_username(),
                before,
                after,
            )

    def log_change(self, request: HttpRequest, obj: Any, message: Any):
        if "password" in request.path.rstrip("/").rsplit("/", 1)[-1]:
            logger.warning(
                "password of %s reset by %s", obj.get_username(), request.user.get_username()
            )
        return super().log_change(request, obj, message)


class ReadOnly(StaffOnly):
    """Axes' records are the audit of logging in: read, never edited here."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(AccessAttempt, site=site)
class LockoutAdmin(ReadOnly, AccessAttemptAdmin):
    """Failed logins within the cool-off, and the lockouts they make; lifted
    by the action, as the API lifts them (floor.logins.lift_lockout)."""

    actions = ["lift_lockout"]

    def get_list_display(self, request: HttpRequest):
        return [*super().get_list_display(request), "locked_now"]

    @admin.display(description=_("Locked out now"), boolean=True)
    def locked_now(self, attempt: AccessAttempt) -> bool:
        locked = {(row["kind"], row["value"]) for row in logins.current_lockouts()}
        return ("username", attempt.username) in locked or (
            "ip_address",
            attempt.ip_address,
        ) in locked

    @admin.action(description=_("Lift the lockout"))
    def lift_lockout(self, request: HttpRequest, queryset) -> None:
        pairs = set(queryset.values_list("username", "ip_address"))
        cleared = 0
        for username, ip_address in pairs:
            cleared += logins.lift_lockout(
                username=username, ip_address=ip_address, lifted_by=request.user.get_username()
            )
        self.message_user(
            request,
            _("Lockout lifted: %(count)d attempt records cleared.") % {"count": cleared},
        )

    def get_actions(self, request: HttpRequest):
        """Only the lift: axes' own clean-up deletes without the log line."""
        actions = super().get_actions(request)
        return {name: action for name, action in actions.items() if name == "lift_lockout"}


@admin.register(AccessLog, site=site)
class LoginLogAdmin(ReadOnly, AccessLogAdmin):
    pass


@admin.register(AccessFailureLog, site=site)
class LoginFailureAdmin(ReadOnly, AccessFailureLogAdmin):
    pass

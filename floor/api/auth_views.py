"""Logging in to the API: tokens that last a shift, logout, one's own tokens, and
the director's view of login lockouts (README, "Logging in"; floor.logins).

The token endpoint is throttled per client address (DRF's ScopedRateThrottle,
scope ``login``) and every password it checks goes through django-axes, which
locks a user name or an address out after a few failures.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate, user_logged_in
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from knox.views import LogoutAllView as KnoxLogoutAllView
from knox.views import LogoutView as KnoxLogoutView
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from floor import logins
from floor.api.errors import error_body
from floor.kernel.errors import forbidden
from floor.kernel.roles import Role
from floor.kernel.web.gateway import actor_for
from floor.kernel.web.serializers import ErrorSerializer

TOKEN_NOT_FOUND = _("That token does not exist, has expired, or is not yours.")
NOTHING_TO_LIFT = _("No failed logins are recorded for that user name or address.")
SAY_WHO = _("Say which user name or address to lift the lockout of.")


class TokenScheme(OpenApiAuthenticationExtension):
    """knox's tokens in the schema under the name DRF's had (``tokenAuth``): the
    header is the same, ``Authorization: Token <token>``, so clients keep theirs."""

    target_class = "floor.logins.ShiftTokenAuthentication"
    name = "tokenAuth"
    priority = 1  # over drf-spectacular's own knox extension

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.authenticate_header(None)
        )


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField(help_text="When the token stops working (a shift).")


class TokenInfoSerializer(serializers.Serializer):
    prefix = serializers.CharField(help_text="The token's first characters; never the secret.")
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)
    current = serializers.BooleanField(help_text="The token this request came with.")


class LockoutSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["username", "ip_address"])
    value = serializers.CharField()
    failures = serializers.IntegerField()
    last_failure_at = serializers.DateTimeField()
    lifts_at = serializers.DateTimeField(help_text="When the lockout lifts by itself.")


class LockoutReportSerializer(serializers.Serializer):
    failure_limit = serializers.IntegerField(help_text="Failures that lock a user name.")
    address_failure_limit = serializers.IntegerField(help_text="Failures that lock an address.")
    cool_off_minutes = serializers.IntegerField()
    locked = LockoutSerializer(many=True)


class LiftLockoutSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, required=False)
    ip_address = serializers.IPAddressField(required=False)

    def validate(self, attrs: dict) -> dict:
        if not attrs.get("username") and not attrs.get("ip_address"):
            raise serializers.ValidationError(str(SAY_WHO))
        return attrs


class IsDirector(BasePermission):
    """Lockouts are the director's: they read them and lift them."""

    def has_permission(self, request, view) -> bool:
        actor = actor_for(request.user)
        if request.user.is_authenticated and Role.DIRECTOR not in actor.roles:
            raise forbidden("role_not_allowed", roles=[str(Role.DIRECTOR)])
        return True


LOGIN_REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="Wrong user name or password"),
    429: OpenApiResponse(
        ErrorSerializer,
        description="login_locked: too many wrong passwords for this user or address; "
        "or throttled: too many requests from this address",
    ),
}


class TokenView(APIView):
    """A new API token for a user name and password; it lasts a shift."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (ScopedRateThrottle,)
    throttle_scope = "login"

    @extend_schema(
        auth=[],
        request=CredentialsSerializer,
        responses={200: TokenSerializer, **LOGIN_REFUSALS},
    )
    def post(self, request: Request) -> Response:
        """Anyone may ask. Wrong passwords count towards a lockout (django-axes),
        which answers 429 ``login_locked`` even to the right one until it lifts."""
        credentials = CredentialsSerializer(data=request.data)
        credentials.is_valid(raise_exception=True)
        user = authenticate(request=request, **credentials.validated_data)
        if user is None:
            if logins.is_locked_out(request):
                return Response(logins.locked_body(), status=status.HTTP_429_TOO_MANY_REQUESTS)
            return Response(
                error_body("login_failed", str(logins.LOGIN_FAILED_MESSAGE)),
                status=status.HTTP_400_BAD_REQUEST,
            )
        instance, token = logins.issue_token(user)
        # As knox's LoginView does: last_login, and axes' AccessLog of the login.
        user_logged_in.send(sender=user.__class__, request=request, user=user)
        logins.drop_session_made_for_axes(request)
        return Response(TokenSerializer({"token": token, "expiry": instance.expiry}).data)


# A logout reads no body; the API's every POST lists its 400 all the same.
LOGOUT_RESPONSES = {
    204: None,
    400: OpenApiResponse(ErrorSerializer, description="Not given: a logout reads no body"),
}


class LogoutView(KnoxLogoutView):
    authentication_classes = (logins.ShiftTokenAuthentication,)  # the API's token check

    @extend_schema(request=None, responses=LOGOUT_RESPONSES)
    def post(self, request: Request, *args, **kwargs) -> Response:
        """Revokes the token this request came with."""
        response = super().post(request, *args, **kwargs)
        logins.drop_session_made_for_axes(request)
        return response


class LogoutAllView(KnoxLogoutAllView):
    authentication_classes = (logins.ShiftTokenAuthentication,)

    @extend_schema(request=None, responses=LOGOUT_RESPONSES)
    def post(self, request: Request, *args, **kwargs) -> Response:
        """Revokes every token of the caller (every device)."""
        response = super().post(request, *args, **kwargs)
        logins.drop_session_made_for_axes(request)
        return response


def live_tokens(user) -> object:
    """The user's tokens that still work, oldest first."""
    return AuthToken.objects.filter(
        Q(expiry__gt=timezone.now()) | Q(expiry__isnull=True), user=user
    ).order_by("created")


class TokenListView(APIView):
    reads = "own_tokens"

    @extend_schema(responses=TokenInfoSerializer(many=True), operation_id="auth_tokens_list")
    def get(self, request: Request) -> Response:
        """The caller's own tokens that still work: prefix, created, expiry."""
        current = getattr(request.auth, "digest", None)
        rows = [
            {
                "prefix": token.token_key,
                "created": token.created,
                "expiry": token.expiry,
                "current": token.digest == current,
            }
            for token in live_tokens(request.user)
        ]
        return Response(TokenInfoSerializer(rows, many=True).data)


class TokenDetailView(APIView):
    @extend_schema(responses={204: None, 404: ErrorSerializer})
    def delete(self, request: Request, prefix: str) -> Response:
        """Revokes one of the caller's tokens, named by its prefix (another
        user's is answered as one that does not exist)."""
        deleted, _ = AuthToken.objects.filter(user=request.user, token_key=prefix).delete()
        if not deleted:
            return Response(
                error_body("token_not_found", str(TOKEN_NOT_FOUND)),
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(status=status.HTTP_204_NO_CONTENT)


def lockout_report() -> dict[str, object]:
    return {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address_failure_limit": settings.FLOOR_LOGIN_ADDRESS_FAILURE_LIMIT,
        "cool_off_minutes": logins.cool_off_minutes(),
        "locked": logins.current_lockouts(),
    }


class LockoutListView(APIView):
    reads = "lockouts"
    permission_classes = (*APIView.permission_classes, IsDirector)

    @extend_schema(responses=LockoutReportSerializer)
    def get(self, request: Request) -> Response:
        """The user names and addresses locked out now (director), and when each
        lifts by itself; every failure stays in axes' AccessFailureLog."""
        return Response(LockoutReportSerializer(lockout_report()).data)


class LiftLockoutView(APIView):
    permission_classes = (*APIView.permission_classes, IsDirector)

    @extend_schema(
        request=LiftLockoutSerializer,
        responses={
            200: LockoutReportSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No failed logins to clear"),
        },
    )
    def post(self, request: Request) -> Response:
        """Lifts the lockout of a user name and/or an address at once (director):
        their failed logins are cleared; the log names who lifted it."""
        asked = LiftLockoutSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        cleared = logins.lift_lockout(
            username=asked.validated_data.get("username"),
            ip_address=asked.validated_data.get("ip_address"),
            lifted_by=request.user.get_username(),
        )
        if not cleared:
            return Response(
                error_body("lockout_not_found", str(NOTHING_TO_LIFT)),
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(LockoutReportSerializer(lockout_report()).data)

from enum import StrEnum


class ErrorErrorCode(StrEnum):
    BUDGET_EXCEEDED = "budget_exceeded"
    CAPABILITY_NOT_SUPPORTED = "capability_not_supported"
    COMPARISON_NOT_CANCELABLE = "comparison_not_cancelable"
    DELIVERY_NOT_REPLAYABLE = "delivery_not_replayable"
    GENERATION_NOT_CANCELABLE = "generation_not_cancelable"
    GENERATION_NOT_FINISHED = "generation_not_finished"
    IDEMPOTENCY_IN_PROGRESS = "idempotency_in_progress"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INSUFFICIENT_CREDITS = "insufficient_credits"
    INSUFFICIENT_ROLE = "insufficient_role"
    INTERNAL_ERROR = "internal_error"
    INVALID_API_KEY = "invalid_api_key"
    INVALID_AUTHORIZATION = "invalid_authorization"
    INVALID_SIGNATURE = "invalid_signature"
    IP_NOT_ALLOWED = "ip_not_allowed"
    LAST_OWNER = "last_owner"
    MISSING_AUTHORIZATION = "missing_authorization"
    MODALITY_MISMATCH = "modality_mismatch"
    ORGANIZATION_PAUSED = "organization_paused"
    OUTPUT_EXPIRED = "output_expired"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    PLAN_UPGRADE_REQUIRED = "plan_upgrade_required"
    PROVIDER_UNAVAILABLE = "provider_unavailable"
    RATE_LIMITED = "rate_limited"
    RESOURCE_ALREADY_EXISTS = "resource_already_exists"
    RESOURCE_NOT_FOUND = "resource_not_found"
    SERVICE_UNAVAILABLE = "service_unavailable"
    UNKNOWN_MODEL = "unknown_model"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    USER_DEACTIVATED = "user_deactivated"
    VALIDATION_FAILED = "validation_failed"
    WEBHOOK_DISABLED = "webhook_disabled"

    def __str__(self) -> str:
        return str(self.value)

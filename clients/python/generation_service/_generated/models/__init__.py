"""Contains all the data models used in inputs/outputs"""

from .admin_adjust_credits_body import AdminAdjustCreditsBody
from .admin_create_organization_body import AdminCreateOrganizationBody
from .admin_create_organization_body_plan import AdminCreateOrganizationBodyPlan
from .admin_update_organization_body import AdminUpdateOrganizationBody
from .admin_update_organization_body_plan import AdminUpdateOrganizationBodyPlan
from .anomaly_detected_event import AnomalyDetectedEvent
from .anomaly_detected_event_data import AnomalyDetectedEventData
from .api_key import ApiKey
from .api_key_environment import ApiKeyEnvironment
from .api_key_list import ApiKeyList
from .api_key_role import ApiKeyRole
from .api_key_scopes_item import ApiKeyScopesItem
from .api_key_with_secret import ApiKeyWithSecret
from .api_key_with_secret_environment import ApiKeyWithSecretEnvironment
from .api_key_with_secret_role import ApiKeyWithSecretRole
from .api_key_with_secret_scopes_item import ApiKeyWithSecretScopesItem
from .balance import Balance
from .balance_plan import BalancePlan
from .budget_threshold_event import BudgetThresholdEvent
from .budget_threshold_event_data import BudgetThresholdEventData
from .budget_threshold_event_data_reason import BudgetThresholdEventDataReason
from .budget_threshold_event_data_threshold import BudgetThresholdEventDataThreshold
from .chat_completion import ChatCompletion
from .chat_completion_message import ChatCompletionMessage
from .chat_completion_status import ChatCompletionStatus
from .chat_completion_usage import ChatCompletionUsage
from .comparison import Comparison
from .comparison_completed_event import ComparisonCompletedEvent
from .comparison_completed_event_data import ComparisonCompletedEventData
from .comparison_completed_event_data_modality import (
    ComparisonCompletedEventDataModality,
)
from .comparison_completed_event_data_status import ComparisonCompletedEventDataStatus
from .comparison_generation import ComparisonGeneration
from .comparison_generation_status import ComparisonGenerationStatus
from .comparison_generation_usage import ComparisonGenerationUsage
from .comparison_list import ComparisonList
from .comparison_modality import ComparisonModality
from .comparison_not_cancelable_error import ComparisonNotCancelableError
from .comparison_not_cancelable_error_error import ComparisonNotCancelableErrorError
from .comparison_not_cancelable_error_error_code import (
    ComparisonNotCancelableErrorErrorCode,
)
from .comparison_not_cancelable_error_error_type import (
    ComparisonNotCancelableErrorErrorType,
)
from .comparison_params_shared import ComparisonParamsShared
from .comparison_status import ComparisonStatus
from .create_api_key_body import CreateApiKeyBody
from .create_api_key_body_environment import CreateApiKeyBodyEnvironment
from .create_api_key_body_role import CreateApiKeyBodyRole
from .create_api_key_body_scopes_item import CreateApiKeyBodyScopesItem
from .create_avatar_body import CreateAvatarBody
from .create_chat_body import CreateChatBody
from .create_chat_body_messages_item import CreateChatBodyMessagesItem
from .create_chat_body_messages_item_role import CreateChatBodyMessagesItemRole
from .create_comparison_body import CreateComparisonBody
from .create_comparison_body_params_shared import CreateComparisonBodyParamsShared
from .create_image_body import CreateImageBody
from .create_image_body_aspect_ratio import CreateImageBodyAspectRatio
from .create_music_body import CreateMusicBody
from .create_quote_body import CreateQuoteBody
from .create_quote_body_body import CreateQuoteBodyBody
from .create_quote_body_endpoint import CreateQuoteBodyEndpoint
from .create_three_d_body import CreateThreeDBody
from .create_three_d_body_mesh_complexity import CreateThreeDBodyMeshComplexity
from .create_three_d_body_texture_size import CreateThreeDBodyTextureSize
from .create_upload_body import CreateUploadBody
from .create_upload_body_content_type import CreateUploadBodyContentType
from .create_upscale_body import CreateUpscaleBody
from .create_upscale_body_scale_factor import CreateUpscaleBodyScaleFactor
from .create_user_body import CreateUserBody
from .create_user_body_role import CreateUserBodyRole
from .create_video_body import CreateVideoBody
from .create_voice_body import CreateVoiceBody
from .create_voice_body_operation import CreateVoiceBodyOperation
from .create_webhook_body import CreateWebhookBody
from .create_webhook_body_events_type_0_item import CreateWebhookBodyEventsType0Item
from .created_organization import CreatedOrganization
from .created_organization_plan import CreatedOrganizationPlan
from .credit_adjustment import CreditAdjustment
from .current_api_key import CurrentApiKey
from .current_api_key_environment import CurrentApiKeyEnvironment
from .current_api_key_organization import CurrentApiKeyOrganization
from .current_api_key_organization_plan import CurrentApiKeyOrganizationPlan
from .current_api_key_role import CurrentApiKeyRole
from .current_api_key_scopes_item import CurrentApiKeyScopesItem
from .delete_provider_credential_provider import DeleteProviderCredentialProvider
from .deleted_provider_credential import DeletedProviderCredential
from .deleted_provider_credential_provider import DeletedProviderCredentialProvider
from .deleted_webhook import DeletedWebhook
from .delivery_exhausted_event import DeliveryExhaustedEvent
from .delivery_exhausted_event_data import DeliveryExhaustedEventData
from .delivery_not_replayable_error import DeliveryNotReplayableError
from .delivery_not_replayable_error_error import DeliveryNotReplayableErrorError
from .delivery_not_replayable_error_error_code import (
    DeliveryNotReplayableErrorErrorCode,
)
from .delivery_not_replayable_error_error_type import (
    DeliveryNotReplayableErrorErrorType,
)
from .endpoint_disabled_event import EndpointDisabledEvent
from .endpoint_disabled_event_data import EndpointDisabledEventData
from .error import Error
from .error_detail import ErrorDetail
from .error_error import ErrorError
from .error_error_code import ErrorErrorCode
from .error_error_type import ErrorErrorType
from .event_list import EventList
from .generation import Generation
from .generation_completed_event import GenerationCompletedEvent
from .generation_completed_event_data import GenerationCompletedEventData
from .generation_completed_event_data_modality import (
    GenerationCompletedEventDataModality,
)
from .generation_error_source import GenerationErrorSource
from .generation_failed_event import GenerationFailedEvent
from .generation_failed_event_data import GenerationFailedEventData
from .generation_failed_event_data_modality import GenerationFailedEventDataModality
from .generation_list import GenerationList
from .generation_modality import GenerationModality
from .generation_not_cancelable_error import GenerationNotCancelableError
from .generation_not_cancelable_error_error import GenerationNotCancelableErrorError
from .generation_not_cancelable_error_error_code import (
    GenerationNotCancelableErrorErrorCode,
)
from .generation_not_cancelable_error_error_type import (
    GenerationNotCancelableErrorErrorType,
)
from .generation_not_finished_error import GenerationNotFinishedError
from .generation_not_finished_error_error import GenerationNotFinishedErrorError
from .generation_not_finished_error_error_code import (
    GenerationNotFinishedErrorErrorCode,
)
from .generation_not_finished_error_error_type import (
    GenerationNotFinishedErrorErrorType,
)
from .generation_output import GenerationOutput
from .generation_params import GenerationParams
from .generation_status import GenerationStatus
from .generation_usage import GenerationUsage
from .get_usage_format import GetUsageFormat
from .get_usage_group_by import GetUsageGroupBy
from .get_usage_modality import GetUsageModality
from .health_type_0 import HealthType0
from .health_type_1 import HealthType1
from .health_type_1_postgres import HealthType1Postgres
from .health_type_1_temporal import HealthType1Temporal
from .idempotency_in_progress_error import IdempotencyInProgressError
from .idempotency_in_progress_error_error import IdempotencyInProgressErrorError
from .idempotency_in_progress_error_error_code import (
    IdempotencyInProgressErrorErrorCode,
)
from .idempotency_in_progress_error_error_type import (
    IdempotencyInProgressErrorErrorType,
)
from .idempotency_key_reused_error import IdempotencyKeyReusedError
from .idempotency_key_reused_error_error import IdempotencyKeyReusedErrorError
from .idempotency_key_reused_error_error_code import IdempotencyKeyReusedErrorErrorCode
from .idempotency_key_reused_error_error_type import IdempotencyKeyReusedErrorErrorType
from .insufficient_credits_error import InsufficientCreditsError
from .insufficient_credits_error_error import InsufficientCreditsErrorError
from .insufficient_credits_error_error_code import InsufficientCreditsErrorErrorCode
from .insufficient_credits_error_error_type import InsufficientCreditsErrorErrorType
from .internal_error_error import InternalErrorError
from .internal_error_error_error import InternalErrorErrorError
from .internal_error_error_error_code import InternalErrorErrorErrorCode
from .internal_error_error_error_type import InternalErrorErrorErrorType
from .ip_not_allowed_or_insufficient_role_error import (
    IpNotAllowedOrInsufficientRoleError,
)
from .ip_not_allowed_or_insufficient_role_error_error import (
    IpNotAllowedOrInsufficientRoleErrorError,
)
from .ip_not_allowed_or_insufficient_role_error_error_code import (
    IpNotAllowedOrInsufficientRoleErrorErrorCode,
)
from .ip_not_allowed_or_insufficient_role_error_error_type import (
    IpNotAllowedOrInsufficientRoleErrorErrorType,
)
from .ip_not_allowed_or_insufficient_role_or_organization_paused_error import (
    IpNotAllowedOrInsufficientRoleOrOrganizationPausedError,
)
from .ip_not_allowed_or_insufficient_role_or_organization_paused_error_error import (
    IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorError,
)
from .ip_not_allowed_or_insufficient_role_or_organization_paused_error_error_code import (
    IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorCode,
)
from .ip_not_allowed_or_insufficient_role_or_organization_paused_error_error_type import (
    IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorType,
)
from .last_owner_error import LastOwnerError
from .last_owner_error_error import LastOwnerErrorError
from .last_owner_error_error_code import LastOwnerErrorErrorCode
from .last_owner_error_error_type import LastOwnerErrorErrorType
from .last_owner_or_user_deactivated_error import LastOwnerOrUserDeactivatedError
from .last_owner_or_user_deactivated_error_error import (
    LastOwnerOrUserDeactivatedErrorError,
)
from .last_owner_or_user_deactivated_error_error_code import (
    LastOwnerOrUserDeactivatedErrorErrorCode,
)
from .last_owner_or_user_deactivated_error_error_type import (
    LastOwnerOrUserDeactivatedErrorErrorType,
)
from .list_events_type import ListEventsType
from .list_generations_modality import ListGenerationsModality
from .list_generations_status import ListGenerationsStatus
from .list_models_capability import ListModelsCapability
from .list_models_modality import ListModelsModality
from .list_models_tier import ListModelsTier
from .list_webhook_deliveries_status import ListWebhookDeliveriesStatus
from .missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from .missing_authorization_or_invalid_authorization_or_invalid_api_key_error_error import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorError,
)
from .missing_authorization_or_invalid_authorization_or_invalid_api_key_error_error_code import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorCode,
)
from .missing_authorization_or_invalid_authorization_or_invalid_api_key_error_error_type import (
    MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorType,
)
from .model import Model
from .model_capabilities_item import ModelCapabilitiesItem
from .model_inputs_item import ModelInputsItem
from .model_limits import ModelLimits
from .model_list import ModelList
from .model_modality import ModelModality
from .model_mode import ModelMode
from .model_pricing import ModelPricing
from .model_pricing_unit import ModelPricingUnit
from .model_provider import ModelProvider
from .model_providers_item import ModelProvidersItem
from .model_tier import ModelTier
from .open_ai_chat_completion_body import OpenAiChatCompletionBody
from .open_ai_chat_completion_body_messages_item import (
    OpenAiChatCompletionBodyMessagesItem,
)
from .open_ai_chat_completion_body_messages_item_content_type_1_item import (
    OpenAiChatCompletionBodyMessagesItemContentType1Item,
)
from .open_ai_chat_completion_body_messages_item_content_type_1_item_type import (
    OpenAiChatCompletionBodyMessagesItemContentType1ItemType,
)
from .open_ai_chat_completion_body_messages_item_role import (
    OpenAiChatCompletionBodyMessagesItemRole,
)
from .open_ai_chat_completion_response_200 import OpenAiChatCompletionResponse200
from .open_ai_chat_completion_response_200_choices_item import (
    OpenAiChatCompletionResponse200ChoicesItem,
)
from .open_ai_chat_completion_response_200_choices_item_finish_reason import (
    OpenAiChatCompletionResponse200ChoicesItemFinishReason,
)
from .open_ai_chat_completion_response_200_choices_item_index import (
    OpenAiChatCompletionResponse200ChoicesItemIndex,
)
from .open_ai_chat_completion_response_200_choices_item_message import (
    OpenAiChatCompletionResponse200ChoicesItemMessage,
)
from .open_ai_chat_completion_response_200_choices_item_message_role import (
    OpenAiChatCompletionResponse200ChoicesItemMessageRole,
)
from .open_ai_chat_completion_response_200_object import (
    OpenAiChatCompletionResponse200Object,
)
from .open_ai_chat_completion_response_200_usage import (
    OpenAiChatCompletionResponse200Usage,
)
from .open_ai_error import OpenAiError
from .open_ai_error_error import OpenAiErrorError
from .open_ai_error_error_code import OpenAiErrorErrorCode
from .open_ai_error_error_type import OpenAiErrorErrorType
from .open_ai_generation_failed_error import OpenAiGenerationFailedError
from .open_ai_generation_failed_error_error import OpenAiGenerationFailedErrorError
from .open_ai_generation_failed_error_error_code import (
    OpenAiGenerationFailedErrorErrorCode,
)
from .open_ai_generation_failed_error_error_type import (
    OpenAiGenerationFailedErrorErrorType,
)
from .open_ai_generation_still_running_error import OpenAiGenerationStillRunningError
from .open_ai_generation_still_running_error_error import (
    OpenAiGenerationStillRunningErrorError,
)
from .open_ai_generation_still_running_error_error_code import (
    OpenAiGenerationStillRunningErrorErrorCode,
)
from .open_ai_generation_still_running_error_error_type import (
    OpenAiGenerationStillRunningErrorErrorType,
)
from .open_ai_idempotency_in_progress_or_generation_canceled_error import (
    OpenAiIdempotencyInProgressOrGenerationCanceledError,
)
from .open_ai_idempotency_in_progress_or_generation_canceled_error_error import (
    OpenAiIdempotencyInProgressOrGenerationCanceledErrorError,
)
from .open_ai_idempotency_in_progress_or_generation_canceled_error_error_code import (
    OpenAiIdempotencyInProgressOrGenerationCanceledErrorErrorCode,
)
from .open_ai_idempotency_in_progress_or_generation_canceled_error_error_type import (
    OpenAiIdempotencyInProgressOrGenerationCanceledErrorErrorType,
)
from .open_ai_idempotency_key_reused_error import OpenAiIdempotencyKeyReusedError
from .open_ai_idempotency_key_reused_error_error import (
    OpenAiIdempotencyKeyReusedErrorError,
)
from .open_ai_idempotency_key_reused_error_error_code import (
    OpenAiIdempotencyKeyReusedErrorErrorCode,
)
from .open_ai_idempotency_key_reused_error_error_type import (
    OpenAiIdempotencyKeyReusedErrorErrorType,
)
from .open_ai_internal_error_error import OpenAiInternalErrorError
from .open_ai_internal_error_error_error import OpenAiInternalErrorErrorError
from .open_ai_internal_error_error_error_code import OpenAiInternalErrorErrorErrorCode
from .open_ai_internal_error_error_error_type import OpenAiInternalErrorErrorErrorType
from .open_ai_ip_not_allowed_or_insufficient_role_error import (
    OpenAiIpNotAllowedOrInsufficientRoleError,
)
from .open_ai_ip_not_allowed_or_insufficient_role_error_error import (
    OpenAiIpNotAllowedOrInsufficientRoleErrorError,
)
from .open_ai_ip_not_allowed_or_insufficient_role_error_error_code import (
    OpenAiIpNotAllowedOrInsufficientRoleErrorErrorCode,
)
from .open_ai_ip_not_allowed_or_insufficient_role_error_error_type import (
    OpenAiIpNotAllowedOrInsufficientRoleErrorErrorType,
)
from .open_ai_ip_not_allowed_or_insufficient_role_or_organization_paused_error import (
    OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError,
)
from .open_ai_ip_not_allowed_or_insufficient_role_or_organization_paused_error_error import (
    OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorError,
)
from .open_ai_ip_not_allowed_or_insufficient_role_or_organization_paused_error_error_code import (
    OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorCode,
)
from .open_ai_ip_not_allowed_or_insufficient_role_or_organization_paused_error_error_type import (
    OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorType,
)
from .open_ai_list_models_response_200 import OpenAiListModelsResponse200
from .open_ai_list_models_response_200_data_item import (
    OpenAiListModelsResponse200DataItem,
)
from .open_ai_list_models_response_200_data_item_object import (
    OpenAiListModelsResponse200DataItemObject,
)
from .open_ai_list_models_response_200_object import OpenAiListModelsResponse200Object
from .open_ai_missing_authorization_or_invalid_authorization_or_invalid_api_key_error import (
    OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError,
)
from .open_ai_missing_authorization_or_invalid_authorization_or_invalid_api_key_error_error import (
    OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorError,
)
from .open_ai_missing_authorization_or_invalid_authorization_or_invalid_api_key_error_error_code import (
    OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorCode,
)
from .open_ai_missing_authorization_or_invalid_authorization_or_invalid_api_key_error_error_type import (
    OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorType,
)
from .open_ai_payload_too_large_error import OpenAiPayloadTooLargeError
from .open_ai_payload_too_large_error_error import OpenAiPayloadTooLargeErrorError
from .open_ai_payload_too_large_error_error_code import (
    OpenAiPayloadTooLargeErrorErrorCode,
)
from .open_ai_payload_too_large_error_error_type import (
    OpenAiPayloadTooLargeErrorErrorType,
)
from .open_ai_rate_limited_error import OpenAiRateLimitedError
from .open_ai_rate_limited_error_error import OpenAiRateLimitedErrorError
from .open_ai_rate_limited_error_error_code import OpenAiRateLimitedErrorErrorCode
from .open_ai_rate_limited_error_error_type import OpenAiRateLimitedErrorErrorType
from .open_ai_rate_limited_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error import (
    OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError,
)
from .open_ai_rate_limited_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error_error import (
    OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorError,
)
from .open_ai_rate_limited_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error_error_code import (
    OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorCode,
)
from .open_ai_rate_limited_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error_error_type import (
    OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorType,
)
from .open_ai_service_unavailable_error import OpenAiServiceUnavailableError
from .open_ai_service_unavailable_error_error import OpenAiServiceUnavailableErrorError
from .open_ai_service_unavailable_error_error_code import (
    OpenAiServiceUnavailableErrorErrorCode,
)
from .open_ai_service_unavailable_error_error_type import (
    OpenAiServiceUnavailableErrorErrorType,
)
from .open_ai_service_unavailable_or_provider_unavailable_error import (
    OpenAiServiceUnavailableOrProviderUnavailableError,
)
from .open_ai_service_unavailable_or_provider_unavailable_error_error import (
    OpenAiServiceUnavailableOrProviderUnavailableErrorError,
)
from .open_ai_service_unavailable_or_provider_unavailable_error_error_code import (
    OpenAiServiceUnavailableOrProviderUnavailableErrorErrorCode,
)
from .open_ai_service_unavailable_or_provider_unavailable_error_error_type import (
    OpenAiServiceUnavailableOrProviderUnavailableErrorErrorType,
)
from .open_ai_unknown_model_or_modality_mismatch_or_plan_upgrade_required_error import (
    OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError,
)
from .open_ai_unknown_model_or_modality_mismatch_or_plan_upgrade_required_error_error import (
    OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredErrorError,
)
from .open_ai_unknown_model_or_modality_mismatch_or_plan_upgrade_required_error_error_code import (
    OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredErrorErrorCode,
)
from .open_ai_unknown_model_or_modality_mismatch_or_plan_upgrade_required_error_error_type import (
    OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredErrorErrorType,
)
from .open_ai_unsupported_media_type_error import OpenAiUnsupportedMediaTypeError
from .open_ai_unsupported_media_type_error_error import (
    OpenAiUnsupportedMediaTypeErrorError,
)
from .open_ai_unsupported_media_type_error_error_code import (
    OpenAiUnsupportedMediaTypeErrorErrorCode,
)
from .open_ai_unsupported_media_type_error_error_type import (
    OpenAiUnsupportedMediaTypeErrorErrorType,
)
from .open_ai_validation_failed_error import OpenAiValidationFailedError
from .open_ai_validation_failed_error_error import OpenAiValidationFailedErrorError
from .open_ai_validation_failed_error_error_code import (
    OpenAiValidationFailedErrorErrorCode,
)
from .open_ai_validation_failed_error_error_type import (
    OpenAiValidationFailedErrorErrorType,
)
from .open_ai_validation_failed_or_capability_not_supported_error import (
    OpenAiValidationFailedOrCapabilityNotSupportedError,
)
from .open_ai_validation_failed_or_capability_not_supported_error_error import (
    OpenAiValidationFailedOrCapabilityNotSupportedErrorError,
)
from .open_ai_validation_failed_or_capability_not_supported_error_error_code import (
    OpenAiValidationFailedOrCapabilityNotSupportedErrorErrorCode,
)
from .open_ai_validation_failed_or_capability_not_supported_error_error_type import (
    OpenAiValidationFailedOrCapabilityNotSupportedErrorErrorType,
)
from .openapi_response_200 import OpenapiResponse200
from .openapi_response_200_info import OpenapiResponse200Info
from .openapi_response_200_paths import OpenapiResponse200Paths
from .organization import Organization
from .organization_balance import OrganizationBalance
from .organization_plan import OrganizationPlan
from .payload_too_large_error import PayloadTooLargeError
from .payload_too_large_error_error import PayloadTooLargeErrorError
from .payload_too_large_error_error_code import PayloadTooLargeErrorErrorCode
from .payload_too_large_error_error_type import PayloadTooLargeErrorErrorType
from .plan_upgrade_required_error import PlanUpgradeRequiredError
from .plan_upgrade_required_error_error import PlanUpgradeRequiredErrorError
from .plan_upgrade_required_error_error_code import PlanUpgradeRequiredErrorErrorCode
from .plan_upgrade_required_error_error_type import PlanUpgradeRequiredErrorErrorType
from .plan_upgrade_required_or_budget_exceeded_or_max_cost_exceeded_error import (
    PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError,
)
from .plan_upgrade_required_or_budget_exceeded_or_max_cost_exceeded_error_error import (
    PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededErrorError,
)
from .plan_upgrade_required_or_budget_exceeded_or_max_cost_exceeded_error_error_code import (
    PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededErrorErrorCode,
)
from .plan_upgrade_required_or_budget_exceeded_or_max_cost_exceeded_error_error_type import (
    PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededErrorErrorType,
)
from .plan_upgrade_required_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error import (
    PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError,
)
from .plan_upgrade_required_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error_error import (
    PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorError,
)
from .plan_upgrade_required_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error_error_code import (
    PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorCode,
)
from .plan_upgrade_required_or_insufficient_credits_or_budget_exceeded_or_max_cost_exceeded_error_error_type import (
    PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorType,
)
from .pricing_inputs import PricingInputs
from .pricing_inputs_plan import PricingInputsPlan
from .pricing_inputs_unit import PricingInputsUnit
from .pricing_snapshot import PricingSnapshot
from .pricing_snapshot_unit import PricingSnapshotUnit
from .provider_attempt import ProviderAttempt
from .provider_attempt_outcome import ProviderAttemptOutcome
from .provider_credential import ProviderCredential
from .provider_credential_list import ProviderCredentialList
from .provider_credential_provider import ProviderCredentialProvider
from .put_provider_credential_body import PutProviderCredentialBody
from .put_provider_credential_provider import PutProviderCredentialProvider
from .quote import Quote
from .quote_endpoint import QuoteEndpoint
from .quote_generation import QuoteGeneration
from .rate_limited_error import RateLimitedError
from .rate_limited_error_error import RateLimitedErrorError
from .rate_limited_error_error_code import RateLimitedErrorErrorCode
from .rate_limited_error_error_type import RateLimitedErrorErrorType
from .recover_webhook_body import RecoverWebhookBody
from .resource_already_exists_error import ResourceAlreadyExistsError
from .resource_already_exists_error_error import ResourceAlreadyExistsErrorError
from .resource_already_exists_error_error_code import (
    ResourceAlreadyExistsErrorErrorCode,
)
from .resource_already_exists_error_error_type import (
    ResourceAlreadyExistsErrorErrorType,
)
from .resource_not_found_error import ResourceNotFoundError
from .resource_not_found_error_error import ResourceNotFoundErrorError
from .resource_not_found_error_error_code import ResourceNotFoundErrorErrorCode
from .resource_not_found_error_error_type import ResourceNotFoundErrorErrorType
from .service_unavailable_error import ServiceUnavailableError
from .service_unavailable_error_error import ServiceUnavailableErrorError
from .service_unavailable_error_error_code import ServiceUnavailableErrorErrorCode
from .service_unavailable_error_error_type import ServiceUnavailableErrorErrorType
from .service_unavailable_or_provider_unavailable_error import (
    ServiceUnavailableOrProviderUnavailableError,
)
from .service_unavailable_or_provider_unavailable_error_error import (
    ServiceUnavailableOrProviderUnavailableErrorError,
)
from .service_unavailable_or_provider_unavailable_error_error_code import (
    ServiceUnavailableOrProviderUnavailableErrorErrorCode,
)
from .service_unavailable_or_provider_unavailable_error_error_type import (
    ServiceUnavailableOrProviderUnavailableErrorErrorType,
)
from .unsupported_media_type_error import UnsupportedMediaTypeError
from .unsupported_media_type_error_error import UnsupportedMediaTypeErrorError
from .unsupported_media_type_error_error_code import UnsupportedMediaTypeErrorErrorCode
from .unsupported_media_type_error_error_type import UnsupportedMediaTypeErrorErrorType
from .update_api_key_body import UpdateApiKeyBody
from .update_user_body import UpdateUserBody
from .update_user_body_role import UpdateUserBodyRole
from .update_webhook_body import UpdateWebhookBody
from .upload import Upload
from .upload_content_type import UploadContentType
from .upload_headers import UploadHeaders
from .usage import Usage
from .usage_group_by import UsageGroupBy
from .usage_row import UsageRow
from .user import User
from .user_list import UserList
from .user_role import UserRole
from .validation_failed_error import ValidationFailedError
from .validation_failed_error_error import ValidationFailedErrorError
from .validation_failed_error_error_code import ValidationFailedErrorErrorCode
from .validation_failed_error_error_type import ValidationFailedErrorErrorType
from .validation_failed_or_unknown_model_or_modality_mismatch_or_capability_not_supported_error import (
    ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError,
)
from .validation_failed_or_unknown_model_or_modality_mismatch_or_capability_not_supported_error_error import (
    ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedErrorError,
)
from .validation_failed_or_unknown_model_or_modality_mismatch_or_capability_not_supported_error_error_code import (
    ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedErrorErrorCode,
)
from .validation_failed_or_unknown_model_or_modality_mismatch_or_capability_not_supported_error_error_type import (
    ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedErrorErrorType,
)
from .webhook import Webhook
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_attempt import WebhookDeliveryAttempt
from .webhook_delivery_event_type import WebhookDeliveryEventType
from .webhook_delivery_list import WebhookDeliveryList
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_disabled_error import WebhookDisabledError
from .webhook_disabled_error_error import WebhookDisabledErrorError
from .webhook_disabled_error_error_code import WebhookDisabledErrorErrorCode
from .webhook_disabled_error_error_type import WebhookDisabledErrorErrorType
from .webhook_events_item import WebhookEventsItem
from .webhook_limit_reached_error import WebhookLimitReachedError
from .webhook_limit_reached_error_error import WebhookLimitReachedErrorError
from .webhook_limit_reached_error_error_code import WebhookLimitReachedErrorErrorCode
from .webhook_limit_reached_error_error_type import WebhookLimitReachedErrorErrorType
from .webhook_list import WebhookList
from .webhook_recovery import WebhookRecovery
from .webhook_recovery_status import WebhookRecoveryStatus
from .webhook_status import WebhookStatus
from .webhook_with_secret import WebhookWithSecret
from .webhook_with_secret_events_item import WebhookWithSecretEventsItem
from .webhook_with_secret_status import WebhookWithSecretStatus

__all__ = (
    "AdminAdjustCreditsBody",
    "AdminCreateOrganizationBody",
    "AdminCreateOrganizationBodyPlan",
    "AdminUpdateOrganizationBody",
    "AdminUpdateOrganizationBodyPlan",
    "AnomalyDetectedEvent",
    "AnomalyDetectedEventData",
    "ApiKey",
    "ApiKeyEnvironment",
    "ApiKeyList",
    "ApiKeyRole",
    "ApiKeyScopesItem",
    "ApiKeyWithSecret",
    "ApiKeyWithSecretEnvironment",
    "ApiKeyWithSecretRole",
    "ApiKeyWithSecretScopesItem",
    "Balance",
    "BalancePlan",
    "BudgetThresholdEvent",
    "BudgetThresholdEventData",
    "BudgetThresholdEventDataReason",
    "BudgetThresholdEventDataThreshold",
    "ChatCompletion",
    "ChatCompletionMessage",
    "ChatCompletionStatus",
    "ChatCompletionUsage",
    "Comparison",
    "ComparisonCompletedEvent",
    "ComparisonCompletedEventData",
    "ComparisonCompletedEventDataModality",
    "ComparisonCompletedEventDataStatus",
    "ComparisonGeneration",
    "ComparisonGenerationStatus",
    "ComparisonGenerationUsage",
    "ComparisonList",
    "ComparisonModality",
    "ComparisonNotCancelableError",
    "ComparisonNotCancelableErrorError",
    "ComparisonNotCancelableErrorErrorCode",
    "ComparisonNotCancelableErrorErrorType",
    "ComparisonParamsShared",
    "ComparisonStatus",
    "CreateApiKeyBody",
    "CreateApiKeyBodyEnvironment",
    "CreateApiKeyBodyRole",
    "CreateApiKeyBodyScopesItem",
    "CreateAvatarBody",
    "CreateChatBody",
    "CreateChatBodyMessagesItem",
    "CreateChatBodyMessagesItemRole",
    "CreateComparisonBody",
    "CreateComparisonBodyParamsShared",
    "CreateImageBody",
    "CreateImageBodyAspectRatio",
    "CreateMusicBody",
    "CreateQuoteBody",
    "CreateQuoteBodyBody",
    "CreateQuoteBodyEndpoint",
    "CreateThreeDBody",
    "CreateThreeDBodyMeshComplexity",
    "CreateThreeDBodyTextureSize",
    "CreateUploadBody",
    "CreateUploadBodyContentType",
    "CreateUpscaleBody",
    "CreateUpscaleBodyScaleFactor",
    "CreateUserBody",
    "CreateUserBodyRole",
    "CreateVideoBody",
    "CreateVoiceBody",
    "CreateVoiceBodyOperation",
    "CreateWebhookBody",
    "CreateWebhookBodyEventsType0Item",
    "CreatedOrganization",
    "CreatedOrganizationPlan",
    "CreditAdjustment",
    "CurrentApiKey",
    "CurrentApiKeyEnvironment",
    "CurrentApiKeyOrganization",
    "CurrentApiKeyOrganizationPlan",
    "CurrentApiKeyRole",
    "CurrentApiKeyScopesItem",
    "DeleteProviderCredentialProvider",
    "DeletedProviderCredential",
    "DeletedProviderCredentialProvider",
    "DeletedWebhook",
    "DeliveryExhaustedEvent",
    "DeliveryExhaustedEventData",
    "DeliveryNotReplayableError",
    "DeliveryNotReplayableErrorError",
    "DeliveryNotReplayableErrorErrorCode",
    "DeliveryNotReplayableErrorErrorType",
    "EndpointDisabledEvent",
    "EndpointDisabledEventData",
    "Error",
    "ErrorDetail",
    "ErrorError",
    "ErrorErrorCode",
    "ErrorErrorType",
    "EventList",
    "Generation",
    "GenerationCompletedEvent",
    "GenerationCompletedEventData",
    "GenerationCompletedEventDataModality",
    "GenerationErrorSource",
    "GenerationFailedEvent",
    "GenerationFailedEventData",
    "GenerationFailedEventDataModality",
    "GenerationList",
    "GenerationModality",
    "GenerationNotCancelableError",
    "GenerationNotCancelableErrorError",
    "GenerationNotCancelableErrorErrorCode",
    "GenerationNotCancelableErrorErrorType",
    "GenerationNotFinishedError",
    "GenerationNotFinishedErrorError",
    "GenerationNotFinishedErrorErrorCode",
    "GenerationNotFinishedErrorErrorType",
    "GenerationOutput",
    "GenerationParams",
    "GenerationStatus",
    "GenerationUsage",
    "GetUsageFormat",
    "GetUsageGroupBy",
    "GetUsageModality",
    "HealthType0",
    "HealthType1",
    "HealthType1Postgres",
    "HealthType1Temporal",
    "IdempotencyInProgressError",
    "IdempotencyInProgressErrorError",
    "IdempotencyInProgressErrorErrorCode",
    "IdempotencyInProgressErrorErrorType",
    "IdempotencyKeyReusedError",
    "IdempotencyKeyReusedErrorError",
    "IdempotencyKeyReusedErrorErrorCode",
    "IdempotencyKeyReusedErrorErrorType",
    "InsufficientCreditsError",
    "InsufficientCreditsErrorError",
    "InsufficientCreditsErrorErrorCode",
    "InsufficientCreditsErrorErrorType",
    "InternalErrorError",
    "InternalErrorErrorError",
    "InternalErrorErrorErrorCode",
    "InternalErrorErrorErrorType",
    "IpNotAllowedOrInsufficientRoleError",
    "IpNotAllowedOrInsufficientRoleErrorError",
    "IpNotAllowedOrInsufficientRoleErrorErrorCode",
    "IpNotAllowedOrInsufficientRoleErrorErrorType",
    "IpNotAllowedOrInsufficientRoleOrOrganizationPausedError",
    "IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorError",
    "IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorCode",
    "IpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorType",
    "LastOwnerError",
    "LastOwnerErrorError",
    "LastOwnerErrorErrorCode",
    "LastOwnerErrorErrorType",
    "LastOwnerOrUserDeactivatedError",
    "LastOwnerOrUserDeactivatedErrorError",
    "LastOwnerOrUserDeactivatedErrorErrorCode",
    "LastOwnerOrUserDeactivatedErrorErrorType",
    "ListEventsType",
    "ListGenerationsModality",
    "ListGenerationsStatus",
    "ListModelsCapability",
    "ListModelsModality",
    "ListModelsTier",
    "ListWebhookDeliveriesStatus",
    "MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError",
    "MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorError",
    "MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorCode",
    "MissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorType",
    "Model",
    "ModelCapabilitiesItem",
    "ModelInputsItem",
    "ModelLimits",
    "ModelList",
    "ModelModality",
    "ModelMode",
    "ModelPricing",
    "ModelPricingUnit",
    "ModelProvider",
    "ModelProvidersItem",
    "ModelTier",
    "OpenAiChatCompletionBody",
    "OpenAiChatCompletionBodyMessagesItem",
    "OpenAiChatCompletionBodyMessagesItemContentType1Item",
    "OpenAiChatCompletionBodyMessagesItemContentType1ItemType",
    "OpenAiChatCompletionBodyMessagesItemRole",
    "OpenAiChatCompletionResponse200",
    "OpenAiChatCompletionResponse200ChoicesItem",
    "OpenAiChatCompletionResponse200ChoicesItemFinishReason",
    "OpenAiChatCompletionResponse200ChoicesItemIndex",
    "OpenAiChatCompletionResponse200ChoicesItemMessage",
    "OpenAiChatCompletionResponse200ChoicesItemMessageRole",
    "OpenAiChatCompletionResponse200Object",
    "OpenAiChatCompletionResponse200Usage",
    "OpenAiError",
    "OpenAiErrorError",
    "OpenAiErrorErrorCode",
    "OpenAiErrorErrorType",
    "OpenAiGenerationFailedError",
    "OpenAiGenerationFailedErrorError",
    "OpenAiGenerationFailedErrorErrorCode",
    "OpenAiGenerationFailedErrorErrorType",
    "OpenAiGenerationStillRunningError",
    "OpenAiGenerationStillRunningErrorError",
    "OpenAiGenerationStillRunningErrorErrorCode",
    "OpenAiGenerationStillRunningErrorErrorType",
    "OpenAiIdempotencyInProgressOrGenerationCanceledError",
    "OpenAiIdempotencyInProgressOrGenerationCanceledErrorError",
    "OpenAiIdempotencyInProgressOrGenerationCanceledErrorErrorCode",
    "OpenAiIdempotencyInProgressOrGenerationCanceledErrorErrorType",
    "OpenAiIdempotencyKeyReusedError",
    "OpenAiIdempotencyKeyReusedErrorError",
    "OpenAiIdempotencyKeyReusedErrorErrorCode",
    "OpenAiIdempotencyKeyReusedErrorErrorType",
    "OpenAiInternalErrorError",
    "OpenAiInternalErrorErrorError",
    "OpenAiInternalErrorErrorErrorCode",
    "OpenAiInternalErrorErrorErrorType",
    "OpenAiIpNotAllowedOrInsufficientRoleError",
    "OpenAiIpNotAllowedOrInsufficientRoleErrorError",
    "OpenAiIpNotAllowedOrInsufficientRoleErrorErrorCode",
    "OpenAiIpNotAllowedOrInsufficientRoleErrorErrorType",
    "OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedError",
    "OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorError",
    "OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorCode",
    "OpenAiIpNotAllowedOrInsufficientRoleOrOrganizationPausedErrorErrorType",
    "OpenAiListModelsResponse200",
    "OpenAiListModelsResponse200DataItem",
    "OpenAiListModelsResponse200DataItemObject",
    "OpenAiListModelsResponse200Object",
    "OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyError",
    "OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorError",
    "OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorCode",
    "OpenAiMissingAuthorizationOrInvalidAuthorizationOrInvalidApiKeyErrorErrorType",
    "OpenAiPayloadTooLargeError",
    "OpenAiPayloadTooLargeErrorError",
    "OpenAiPayloadTooLargeErrorErrorCode",
    "OpenAiPayloadTooLargeErrorErrorType",
    "OpenAiRateLimitedError",
    "OpenAiRateLimitedErrorError",
    "OpenAiRateLimitedErrorErrorCode",
    "OpenAiRateLimitedErrorErrorType",
    "OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError",
    "OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorError",
    "OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorCode",
    "OpenAiRateLimitedOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorType",
    "OpenAiServiceUnavailableError",
    "OpenAiServiceUnavailableErrorError",
    "OpenAiServiceUnavailableErrorErrorCode",
    "OpenAiServiceUnavailableErrorErrorType",
    "OpenAiServiceUnavailableOrProviderUnavailableError",
    "OpenAiServiceUnavailableOrProviderUnavailableErrorError",
    "OpenAiServiceUnavailableOrProviderUnavailableErrorErrorCode",
    "OpenAiServiceUnavailableOrProviderUnavailableErrorErrorType",
    "OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredError",
    "OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredErrorError",
    "OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredErrorErrorCode",
    "OpenAiUnknownModelOrModalityMismatchOrPlanUpgradeRequiredErrorErrorType",
    "OpenAiUnsupportedMediaTypeError",
    "OpenAiUnsupportedMediaTypeErrorError",
    "OpenAiUnsupportedMediaTypeErrorErrorCode",
    "OpenAiUnsupportedMediaTypeErrorErrorType",
    "OpenAiValidationFailedError",
    "OpenAiValidationFailedErrorError",
    "OpenAiValidationFailedErrorErrorCode",
    "OpenAiValidationFailedErrorErrorType",
    "OpenAiValidationFailedOrCapabilityNotSupportedError",
    "OpenAiValidationFailedOrCapabilityNotSupportedErrorError",
    "OpenAiValidationFailedOrCapabilityNotSupportedErrorErrorCode",
    "OpenAiValidationFailedOrCapabilityNotSupportedErrorErrorType",
    "OpenapiResponse200",
    "OpenapiResponse200Info",
    "OpenapiResponse200Paths",
    "Organization",
    "OrganizationBalance",
    "OrganizationPlan",
    "PayloadTooLargeError",
    "PayloadTooLargeErrorError",
    "PayloadTooLargeErrorErrorCode",
    "PayloadTooLargeErrorErrorType",
    "PlanUpgradeRequiredError",
    "PlanUpgradeRequiredErrorError",
    "PlanUpgradeRequiredErrorErrorCode",
    "PlanUpgradeRequiredErrorErrorType",
    "PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededError",
    "PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededErrorError",
    "PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededErrorErrorCode",
    "PlanUpgradeRequiredOrBudgetExceededOrMaxCostExceededErrorErrorType",
    "PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededError",
    "PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorError",
    "PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorCode",
    "PlanUpgradeRequiredOrInsufficientCreditsOrBudgetExceededOrMaxCostExceededErrorErrorType",
    "PricingInputs",
    "PricingInputsPlan",
    "PricingInputsUnit",
    "PricingSnapshot",
    "PricingSnapshotUnit",
    "ProviderAttempt",
    "ProviderAttemptOutcome",
    "ProviderCredential",
    "ProviderCredentialList",
    "ProviderCredentialProvider",
    "PutProviderCredentialBody",
    "PutProviderCredentialProvider",
    "Quote",
    "QuoteEndpoint",
    "QuoteGeneration",
    "RateLimitedError",
    "RateLimitedErrorError",
    "RateLimitedErrorErrorCode",
    "RateLimitedErrorErrorType",
    "RecoverWebhookBody",
    "ResourceAlreadyExistsError",
    "ResourceAlreadyExistsErrorError",
    "ResourceAlreadyExistsErrorErrorCode",
    "ResourceAlreadyExistsErrorErrorType",
    "ResourceNotFoundError",
    "ResourceNotFoundErrorError",
    "ResourceNotFoundErrorErrorCode",
    "ResourceNotFoundErrorErrorType",
    "ServiceUnavailableError",
    "ServiceUnavailableErrorError",
    "ServiceUnavailableErrorErrorCode",
    "ServiceUnavailableErrorErrorType",
    "ServiceUnavailableOrProviderUnavailableError",
    "ServiceUnavailableOrProviderUnavailableErrorError",
    "ServiceUnavailableOrProviderUnavailableErrorErrorCode",
    "ServiceUnavailableOrProviderUnavailableErrorErrorType",
    "UnsupportedMediaTypeError",
    "UnsupportedMediaTypeErrorError",
    "UnsupportedMediaTypeErrorErrorCode",
    "UnsupportedMediaTypeErrorErrorType",
    "UpdateApiKeyBody",
    "UpdateUserBody",
    "UpdateUserBodyRole",
    "UpdateWebhookBody",
    "Upload",
    "UploadContentType",
    "UploadHeaders",
    "Usage",
    "UsageGroupBy",
    "UsageRow",
    "User",
    "UserList",
    "UserRole",
    "ValidationFailedError",
    "ValidationFailedErrorError",
    "ValidationFailedErrorErrorCode",
    "ValidationFailedErrorErrorType",
    "ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedError",
    "ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedErrorError",
    "ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedErrorErrorCode",
    "ValidationFailedOrUnknownModelOrModalityMismatchOrCapabilityNotSupportedErrorErrorType",
    "Webhook",
    "WebhookDelivery",
    "WebhookDeliveryAttempt",
    "WebhookDeliveryEventType",
    "WebhookDeliveryList",
    "WebhookDeliveryStatus",
    "WebhookDisabledError",
    "WebhookDisabledErrorError",
    "WebhookDisabledErrorErrorCode",
    "WebhookDisabledErrorErrorType",
    "WebhookEventsItem",
    "WebhookLimitReachedError",
    "WebhookLimitReachedErrorError",
    "WebhookLimitReachedErrorErrorCode",
    "WebhookLimitReachedErrorErrorType",
    "WebhookList",
    "WebhookRecovery",
    "WebhookRecoveryStatus",
    "WebhookStatus",
    "WebhookWithSecret",
    "WebhookWithSecretEventsItem",
    "WebhookWithSecretStatus",
)

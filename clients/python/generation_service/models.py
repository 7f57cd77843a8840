"""The typed models generated from openapi.json (``generation_service.models.Generation`` and so on), under a stable name."""

from ._generated.models import *  # noqa: F403
from ._generated.models import __all__ as __all__

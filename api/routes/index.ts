import Router from '@koa/router';
import type { ApiDeps, AppState } from '../context';
import type { AppRouter } from '../define-route';
import { registerAdminRoutes } from './admin';
import { registerApiKeyRoutes } from './api-keys';
import { registerBalanceRoutes } from './balance';
import { registerFileRoutes } from './files';
import { registerGenerationRoutes } from './generations';
import { registerHealthRoutes } from './health';
import { registerAvatarRoutes } from './avatars';
import { registerChatRoutes } from './chat';
import { registerComparisonRoutes } from './comparisons';
import { registerImageRoutes } from './images';
import { registerMusicRoutes } from './music';
import { registerThreeDRoutes } from './three-d';
import { registerUpscaleRoutes } from './upscale';
import { registerVideoRoutes } from './videos';
import { registerVoiceRoutes } from './voice';
import { registerModelRoutes } from './models';
import { registerProviderCallbackRoutes } from './provider-callbacks';
import { registerUploadRoutes } from './uploads';
import { registerUserRoutes } from './users';
import { registerWebhookRoutes } from './webhooks';

/** One router with every route of the service, each registered through the route table. */
export function createRouter(deps: ApiDeps): AppRouter {
  const router = new Router<AppState>();
  registerHealthRoutes(router, deps);
  registerFileRoutes(router, deps);
  registerAdminRoutes(router, deps);
  registerModelRoutes(router, deps);
  registerBalanceRoutes(router, deps);
  registerImageRoutes(router, deps);
  registerVideoRoutes(router, deps);
  registerVoiceRoutes(router, deps);
  registerMusicRoutes(router, deps);
  registerAvatarRoutes(router, deps);
  registerChatRoutes(router, deps);
  registerThreeDRoutes(router, deps);
  registerUpscaleRoutes(router, deps);
  registerGenerationRoutes(router, deps);
  registerComparisonRoutes(router, deps);
  registerApiKeyRoutes(router, deps);
  registerUserRoutes(router, deps);
  registerWebhookRoutes(router, deps);
  registerUploadRoutes(router, deps);
  registerProviderCallbackRoutes(router, deps);
  return router;
}

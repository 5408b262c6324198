import { TRPC_MAX_BATCH_SIZE } from "@licensing/contracts";
import { AppError, type Deps } from "@licensing/core";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import type { RequestListener } from "node:http";
import express, { type ErrorRequestHandler } from "express";
import type { Redis } from "ioredis";
import swaggerUi from "swagger-ui-express";
import { retryAfterSeconds, toErrorResponse } from "./errors.ts";
import { adminStatic } from "./http/admin-static.ts";
import { loggableUrl, requestLogging } from "./http/logging.ts";
import { metricsEndpoint, observeRequest } from "./http/metrics.ts";
import { originGuard } from "./http/origin-guard.ts";
import { keepRawBody } from "./http/raw-body.ts";
import { apiDocsPolicy, noStore, securityHeaderList, securityHeaders } from "./http/security-headers.ts";
import { operationList, panelOperations } from "./catalogue.ts";
import { directRoutes } from "./operation/direct.ts";
import { buildOpenApiDocument } from "./operation/openapi.ts";
import { flattenOperations } from "./operation/operation.ts";
import { mountOperations } from "./operation/rest.ts";
import { clientOperations } from "./client/operations.ts";
import { contourRateLimit, redisOutageWarning, type Contour, type RateLimits } from "./http/rate-limit.ts";
import { appRouter } from "./trpc/app-router.ts";
import { trpcCallLimits } from "./trpc/call-limits.ts";
import { expressContext } from "./trpc/context.ts";

export interface AppOptions {
  deps: Deps;
  /** The database's own round trip (`Database.ping`), behind /readyz. */
  ping: () => Promise<void>;
  /** True once a graceful shutdown has begun: /readyz answers 503 while requests are still served. */
  shuttingDown?: () => boolean;
  rateLimits: RateLimits;
  /** Shared rate-limit counters; absent means in-process counters. */
  redis?: Redis | undefined;
  /** Key prefix of the Redis counters (default `rl:`), so separate deployments can share one Redis. */
  rateLimitPrefix?: string | undefined;
  /** Express `trust proxy` setting, so `req.ip` is the client behind a load balancer. */
  trustProxy?: boolean | number | string | undefined;
  version: string;
  validateResponses?: boolean;
  /** The admin app's build (`apps/admin/dist`), served at `/`; absent or unbuilt serves nothing there. */
  adminDir?: string | undefined;
  /** METRICS_TOKEN: when set, `/metrics` answers only `Authorization: Bearer <token>` (decision 0054). */
  metricsToken?: string | undefined;
}

const clientList = flattenOperations(clientOperations).map(({ op }) => op);
const panelList = flattenOperations(panelOperations).map(({ op }) => op);
/** The tRPC procedures, so that only their names become metric labels. */
const trpcProcedures = new Set(Object.keys(appRouter._def.procedures));

/** The service's request listener: the client API's direct routes, then the Express app. */
export function createApp(options: AppOptions): RequestListener {
  const { deps } = options;
  const publicBaseUrl = deps.config.publicBaseUrl;
  const cookies = { secure: publicBaseUrl.startsWith("https://") };
  const app = express();
  app.disable("x-powered-by");
  // No ETags: API answers are not cached by clients, and hashing every body costs the hot path.
  app.set("etag", false);
  app.set("trust proxy", options.trustProxy ?? false);
  app.set("query parser", "simple");

  const shared = options.redis && {
    redis: options.redis,
    prefix: options.rateLimitPrefix,
    onUnavailable: redisOutageWarning(deps.clock, deps.logger),
  };
  const limiter = (contour: Contour) =>
    contourRateLimit(contour, options.rateLimits[contour], deps.clock, shared);
  const clientLimiter = limiter("client");
  const jsonBody = express.json({ limit: "1mb", verify: keepRawBody });
  const mountOptions = { deps, cookies, validateResponses: options.validateResponses ?? false };

  // The client API's plain JSON calls, most of all traffic, before anything else (decision 0057).
  const direct = directRoutes(clientList, {
    deps,
    limiter: clientLimiter,
    headers: [...securityHeaderList(publicBaseUrl), ["Cache-Control", "no-store"]],
    validateResponses: mountOptions.validateResponses,
    prefix: "/api/v1",
    trustProxy: app.get("trust proxy fn") as (address: string, hop: number) => boolean,
  });
  app.use(requestLogging(deps.logger, observeRequest(deps.metrics)));
  app.use(securityHeaders(publicBaseUrl));
  app.use(["/api/v1", "/trpc"], noStore);

  // The rest of the client API first, on its own router: the requests the direct routes left (the GETs,
  // odd spellings, other encodings) then pass through nothing that is not theirs.
  const clientApi = express.Router();
  // The Date header comes from the service's clock, not the host's: the SDK corrects a skewed clock from
  // it (hmac.stale), and tests and the QA simulator move that clock.
  clientApi.use("/client", (_req, res, next) => {
    res.setHeader("Date", deps.clock.now().toUTCString());
    next();
  });
  clientApi.use("/client", clientLimiter.handler, jsonBody);
  mountOperations(clientApi, clientList, mountOptions);
  app.use("/api/v1", clientApi);

  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get("/metrics", metricsEndpoint(deps.metrics, options.metricsToken));
  app.get("/readyz", async (_req, res) => {
    // A load balancer takes the instance out of rotation during the drain period (SHUTDOWN_DRAIN_SECONDS).
    if (options.shuttingDown?.()) return void res.status(503).json({ status: "shutting down" });
    const ready = await options.ping().then(
      () => true,
      (err: unknown) => {
        deps.logger.warn({ err }, "database readiness check failed");
        return false;
      },
    );
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "database unreachable" });
  });

  const openApi = buildOpenApiDocument(
    operationList.map(({ op }) => op),
    { version: options.version, serverUrl: publicBaseUrl },
  );
  app.get("/api/v1/openapi.json", (_req, res) => void res.json(openApi));
  app.use(
    "/api/docs",
    apiDocsPolicy,
    swaggerUi.serve,
    swaggerUi.setup(openApi, { customSiteTitle: "Licensing service API" }),
  );

  const panelLimiter = limiter("panel");
  const authLimiter = limiter("auth");
  // The contour is chosen by an Express router, so it matches paths as the routes do (case-insensitive,
  // a trailing slash allowed): /panel/Auth/login is the auth contour because it reaches the login route.
  const panelLimits = express.Router();
  panelLimits.use("/auth", authLimiter.handler, (_req, _res, next) => next("router"));
  panelLimits.use(panelLimiter.handler);
  app.use("/api/v1/panel", panelLimits);
  // Each procedure call counts: `auth.*` against the auth contour, as their REST twins under /panel/auth.
  app.use("/trpc", trpcCallLimits({ panel: panelLimiter, auth: authLimiter }, trpcProcedures));
  app.use(["/api/v1/panel", "/trpc"], originGuard(publicBaseUrl));

  const panelApi = express.Router();
  panelApi.use(jsonBody);
  mountOperations(panelApi, panelList, mountOptions);
  app.use("/api/v1", panelApi);

  app.use(
    "/trpc",
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res, info }) => expressContext(deps, cookies, req, res, info),
      maxBodySize: 1024 * 1024,
      // trpcCallLimits refuses a larger batch first, in the error shape; this is tRPC's own guard.
      maxBatchSize: TRPC_MAX_BATCH_SIZE,
      responseMeta: ({ errors }) => {
        const retryAfter = Math.max(0, ...errors.map(retryAfterSeconds));
        return retryAfter > 0 ? { headers: { "Retry-After": String(retryAfter) } } : {};
      },
      onError: ({ error }) => {
        if (error.code === "SERVICE_UNAVAILABLE") {
          deps.logger.warn({ err: error.cause }, "database unavailable");
        } else if (error.code === "INTERNAL_SERVER_ERROR" && error.cause?.name !== "AppError") {
          deps.logger.error({ err: error.cause ?? error }, "unexpected tRPC error");
        }
      },
    }),
  );

  if (options.adminDir) app.use(adminStatic(options.adminDir));

  app.use((req, _res, next) =>
    next(new AppError("route.not_found", `No route for ${req.method} ${req.path}`)),
  );
  const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
    const { body, unexpected } = toErrorResponse(error);
    if (unexpected)
      deps.logger.error(
        { err: error, method: req.method, url: loggableUrl(req.originalUrl) },
        "unexpected error",
      );
    else if (body.status === 503) deps.logger.warn({ err: error }, "database unavailable");
    if (res.headersSent) return;
    const retryAfter = retryAfterSeconds(error);
    if (retryAfter > 0) res.setHeader("Retry-After", String(retryAfter));
    res.status(body.status).json(body);
  };
  app.use(errorHandler);
  return (req, res) => direct(req, res, () => void app(req, res));
}

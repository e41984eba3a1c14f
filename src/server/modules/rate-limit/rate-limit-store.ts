import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

/** A key's budget, fixed when it was minted. */
interface RateBudget {
  points: number;
  windowSeconds: number;
}

type RateLimitDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/** The port every limiter store implements (in-process, Redis). */
export interface RateLimitStore {
  readonly kind: "memory" | "redis";
  consume(subject: string, budget: RateBudget): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

function budgetKey(budget: RateBudget): string {
  return `${budget.points}/${budget.windowSeconds}`;
}

/** NOTE: `then`, not async and await: every request passes here, and each await is a promise (D354). */
function consumeWith(limiter: RateLimiterAbstract, subject: string): Promise<RateLimitDecision> {
  return limiter.consume(subject, 1).then(allowed, refused);
}

function allowed(res: RateLimiterRes): RateLimitDecision {
  return { allowed: true, remaining: res.remainingPoints };
}

function refused(rejection: unknown): RateLimitDecision {
  if (rejection instanceof RateLimiterRes) {
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
  }
  throw rejection;
}

/** One limiter per distinct budget; budgets are few (set at mint time), so the map stays small. */
function limiterCache(create: (budget: RateBudget) => RateLimiterAbstract) {
  const limiters = new Map<string, RateLimiterAbstract>();
  return (budget: RateBudget) => {
    const key = budgetKey(budget);
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = create(budget);
      limiters.set(key, limiter);
    }
    return limiter;
  };
}

export function createMemoryRateLimitStore(): RateLimitStore {
  const limiterFor = limiterCache(
    (budget) => new RateLimiterMemory({ keyPrefix: `gw:rl:${budgetKey(budget)}`, points: budget.points, duration: budget.windowSeconds }),
  );
  return {
    kind: "memory",
    consume: (subject, budget) => consumeWith(limiterFor(budget), subject),
    close: async () => {},
  };
}

const REDIS_CONNECT_TIMEOUT_MS = 2000;

/** A Redis command unanswered for this long counts as Redis being down (see below). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * Shared across app instances through Redis. NOTE: if Redis is unreachable the limiter falls
 * back to an in-process insurance limiter with the same budget (fail-open to per-instance
 * limits): an outage of the cache neither takes the API down nor lifts every limit. A Redis
 * that hangs (connection up, no answers) is an outage too: without a command timeout every
 * authenticated request would wait for it forever.
 */
export function createRedisRateLimitStore(url: string, onError: (error: Error) => void = () => {}): RateLimitStore {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    lazyConnect: false,
  });
  client.on("error", onError);
  // NOTE: until the first connection is up, rejectIfRedisNotReady sends every request to the
  // insurance limiter: each instance's first requests after a start were counted in-process only,
  // one budget per instance (the topology test saw 22 allowed of a 20 budget over two). So the
  // first requests wait for the first connection (or its failure, or connectTimeout); later
  // outages fall back at once, as before.
  let firstConnection: Promise<void> | undefined = new Promise<void>((resolve) => {
    client.once("ready", resolve);
    client.once("error", resolve);
    setTimeout(resolve, REDIS_CONNECT_TIMEOUT_MS).unref();
  }).then(() => {
    firstConnection = undefined;
  });
  const limiterFor = limiterCache(
    (budget) =>
      new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        keyPrefix: `gw:rl:${budgetKey(budget)}`,
        points: budget.points,
        duration: budget.windowSeconds,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `gw:rl:ins:${budgetKey(budget)}`, points: budget.points, duration: budget.windowSeconds }),
      }),
  );
  return {
    kind: "redis",
    consume: (subject, budget) =>
      firstConnection ? firstConnection.then(() => consumeWith(limiterFor(budget), subject)) : consumeWith(limiterFor(budget), subject),
    close: async () => {
      client.disconnect();
    },
  };
}

export function createRateLimitStore(redisUrl: string | undefined, onError?: (error: Error) => void): RateLimitStore {
  return redisUrl ? createRedisRateLimitStore(redisUrl, onError) : createMemoryRateLimitStore();
}

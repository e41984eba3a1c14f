import type { TaskList } from "graphile-worker";
import { z } from "zod";
import { env } from "@/env";
import type { PrismaClient } from "@/server/db/types";
import type { SecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { LINK_BASE } from "@/server/modules/alerts/alert-message";
import { ALERT_DELIVER_TASK, ALERT_TICK_TASK, alertBaseUrl } from "@/server/modules/alerts/alert-queue";
import { runAlertTick } from "@/server/modules/alerts/alert-tick";
import { deliverAlert } from "@/server/modules/alerts/deliver";
import type { AlertSenders } from "@/server/modules/alerts/senders";
import { sendersFromEnv } from "@/server/modules/alerts/senders-from-env";

export interface AlertWorkerOptions {
  senders?: AlertSenders;
  /** Tries before a delivery is marked failed (default: the job's max_attempts, 5). */
  maxAttempts?: number;
  /** The base of links in the messages this worker sends (default: its PUBLIC_URL chain, D462). */
  baseUrl?: string;
}

const payloadSchema = z.object({ deliveryId: z.string().min(1) });

/** alert_deliver (one try of one message, retried with backoff) and alert_tick (cron, every minute). */
export function alertTasks(db: PrismaClient, secrets: SecretBox, log: (message: string) => void, options: AlertWorkerOptions = {}): TaskList {
  const senders = options.senders ?? sendersFromEnv();
  return {
    [ALERT_DELIVER_TASK]: async (raw, helpers) => {
      const payload = payloadSchema.safeParse(raw);
      if (!payload.success) return;
      const max = Math.min(options.maxAttempts ?? helpers.job.max_attempts, helpers.job.max_attempts);
      const outcome = await deliverAlert(
        { db, secrets, senders, redact: [env().GROUNDWORK_SMTP_URL], baseUrl: options.baseUrl ?? alertBaseUrl() },
        payload.data.deliveryId,
        { number: helpers.job.attempts, max },
      );
      // Throwing hands the job back to graphile-worker, which retries it after a backoff.
      if (outcome === "retry") throw new Error(`alert delivery ${payload.data.deliveryId} failed; it will be retried`);
      if (outcome === "failed") log(`alert delivery ${payload.data.deliveryId} failed after ${helpers.job.attempts} tries`);
    },
    [ALERT_TICK_TASK]: async () => {
      // Stored with the link base left open: the sending process fills it in (D462).
      await runAlertTick(db, { baseUrl: LINK_BASE });
    },
  };
}

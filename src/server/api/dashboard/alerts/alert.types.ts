import { z } from "zod";
import type { ChannelView } from "@/server/modules/alerts/channels";
import type { DeliveryView } from "@/server/modules/alerts/deliveries";
import type { RuleView } from "@/server/modules/alerts/rules";
import { iso, isoOrNull, isoString } from "../iso";

export const scopeInput = z.object({ organizationId: z.string().min(1).max(200).nullable() });
export const organizationInput = z.object({ organizationId: z.string().min(1).max(200) });

export const channelSchema = z.object({
  id: z.string(),
  organizationId: z.string().nullable(),
  name: z.string(),
  kind: z.enum(["email", "chat_url"]),
  emailTo: z.array(z.string()),
  /** Only the scheme and host of a chat URL: the rest is a secret, never sent back. */
  urlHint: z.string().nullable(),
  createdAt: isoString,
});
export const toChannelDto = (c: ChannelView): z.infer<typeof channelSchema> => ({ ...c, createdAt: iso(c.createdAt) });

export const ruleSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  sourceId: z.string().nullable(),
  sourceName: z.string().nullable(),
  channelId: z.string(),
  channelName: z.string(),
  channelKind: z.enum(["email", "chat_url"]),
  remindAfterMinutes: z.number().nullable(),
  mutedUntil: isoString.nullable(),
  createdAt: isoString,
});
export const toRuleDto = (r: RuleView): z.infer<typeof ruleSchema> => ({ ...r, mutedUntil: isoOrNull(r.mutedUntil), createdAt: iso(r.createdAt) });

export const deliverySchema = z.object({
  id: z.string(),
  channelId: z.string(),
  channelName: z.string(),
  channelKind: z.enum(["email", "chat_url"]),
  dataSourceId: z.string().nullable(),
  kind: z.string(),
  state: z.string().nullable(),
  subject: z.string(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  /** Owners only (D376); null for everyone else. */
  lastErrorDetail: z.string().nullable(),
  createdAt: isoString,
  sentAt: isoString.nullable(),
});
export const toDeliveryDto = (d: DeliveryView): z.infer<typeof deliverySchema> => ({ ...d, createdAt: iso(d.createdAt), sentAt: isoOrNull(d.sentAt) });

export const channelIdInput = z.object({ channelId: z.string().min(1).max(200) });

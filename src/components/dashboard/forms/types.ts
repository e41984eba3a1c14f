import type { trpc } from "@/lib/trpc-client";

export type FormRow = Awaited<ReturnType<typeof trpc.forms.list.query>>["items"][number];
export type RecordItem = Awaited<ReturnType<typeof trpc.forms.records.query>>["items"][number];
export type DayCount = Awaited<ReturnType<typeof trpc.forms.perDay.query>>[number];

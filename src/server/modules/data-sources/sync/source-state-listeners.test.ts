import { describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/db/types";
import { announceSourceState, onSourceStateChange } from "./source-state-listeners";

const db = {} as PrismaClient;

describe("the sync pass's source-state port (D537)", () => {
  it("tells every subscriber, once each however often it subscribed, until its last subscription ends", async () => {
    const heard: string[] = [];
    const listener = async (_db: PrismaClient, sourceId: string) => void heard.push(sourceId);
    const off = onSourceStateChange(listener);
    const offAgain = onSourceStateChange(listener);
    await announceSourceState(db, "s1");
    off();
    off(); // a second call is no second unsubscribe
    await announceSourceState(db, "s2");
    offAgain();
    await announceSourceState(db, "s3");
    expect(heard).toEqual(["s1", "s2"]);
  });

  it("logs a failing listener and still tells the next one; the pass is not failed", async () => {
    const log: string[] = [];
    const heard: string[] = [];
    const offBad = onSourceStateChange(async () => {
      throw new Error("mail relay down");
    });
    const offGood = onSourceStateChange(async (_db, sourceId) => void heard.push(sourceId));
    await expect(announceSourceState(db, "s3", (message) => log.push(message))).resolves.toBeUndefined();
    offBad();
    offGood();
    expect(heard).toEqual(["s3"]);
    expect(log).toEqual(["a listener of data source s3's state failed: mail relay down"]);
  });
});

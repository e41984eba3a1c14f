import { expect, test } from "@playwright/test";
import { type NginxProxy, startNginxProxy } from "@/test/nginx-proxy";
import { createAccount } from "../fixtures/dashboard";
import { withE2eDb } from "../fixtures/e2e-db";

// deploy/nginx/groundwork.conf in front of the real `npm start` (next-auth included). nginx
// reaches the app from 127.0.0.5, the one address the e2e server trusts
// (GROUNDWORK_TRUSTED_PROXIES in playwright.config.ts), so clients on 127.0.0.2 and 127.0.0.3
// are told apart only by the X-Forwarded-For the proxy writes.
const appPort = Number(process.env.E2E_PORT ?? 3100);
let proxy: NginxProxy;

test.beforeAll(async () => {
  proxy = await startNginxProxy({ appPort, proxyBind: "127.0.0.5" });
});
test.afterAll(async () => {
  await proxy?.stop();
});

/** next-auth's credentials sign-in, as the sign-in page posts it, from one client address. */
async function signIn(localAddress: string, email: string, password: string): Promise<{ signedIn: boolean; url: string }> {
  const csrf = await proxy.request({ path: "/api/auth/csrf", localAddress });
  const cookie = (csrf.headers["set-cookie"] ?? []).map((value) => value.split(";")[0]).join("; ");
  const { csrfToken } = JSON.parse(csrf.body.toString()) as { csrfToken: string };
  const form = new URLSearchParams({ csrfToken, email, password, json: "true" }).toString();
  const answer = await proxy.request({
    path: "/api/auth/callback/credentials",
    method: "POST",
    localAddress,
    headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(form)), cookie, origin: proxy.origin },
    body: [Buffer.from(form)],
  });
  expect(answer.status, answer.body.toString()).toBeLessThan(500);
  const url = decodeURIComponent(answer.headers.location ?? (JSON.parse(answer.body.toString()) as { url: string }).url);
  const signedIn = (answer.headers["set-cookie"] ?? []).some((value) => value.includes("session-token="));
  return { signedIn, url };
}

test("HTTPS through the shipped nginx site: one HSTS header, the app's health", async () => {
  const health = await proxy.request({ path: "/api/v1/health" });
  expect(health.status).toBe(200);
  const hsts = health.rawHeaders.filter((_, i) => i % 2 === 0 && health.rawHeaders[i]!.toLowerCase() === "strict-transport-security");
  expect(hsts).toHaveLength(1);
});

test("behind the proxy each client has its own sign-in budget, keyed on the address nginx forwards", async () => {
  const account = await createAccount({});
  for (let attempt = 1; attempt <= 5; attempt++) {
    expect((await signIn("127.0.0.2", account.email, `wrong-${attempt}`)).signedIn).toBe(false);
  }
  const locked = await signIn("127.0.0.2", account.email, account.password);
  expect(locked.signedIn).toBe(false);
  expect(locked.url).toMatch(/Try again in 1[45] minutes/);
  // The other client behind the same proxy signs in with the right password.
  expect((await signIn("127.0.0.3", account.email, account.password)).signedIn).toBe(true);
  const budgets = await withE2eDb((db) =>
    db.signInBudget.findMany({ where: { scope: "account_address", key: { startsWith: `${account.email}|` } }, select: { key: true } }),
  );
  expect(budgets.map((budget) => budget.key)).toEqual([`${account.email}|127.0.0.2`]);
});

// A worker entry that says it is ready and then ignores being asked to stop (a hung pass).
process.send({ type: "ready" });
process.on("message", () => undefined);
process.on("SIGTERM", () => undefined);
setInterval(() => undefined, 1000);

export const START_SCRIPT: "scripts/start.mjs";
export function npmStartNodeFlags(): string[];

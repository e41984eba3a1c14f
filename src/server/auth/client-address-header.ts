/**
 * The request header the edge sets to the client's address (D174) for the sign-in budgets. Any
 * value a client sends under this name is replaced at the edge, never trusted. It lives with
 * its readers (sign-in, the invitation handler), not in node/, so auth never imports the edge
 * (D538); the edge (node/node-server.ts) imports it to set it.
 */
export const CLIENT_ADDRESS_HEADER = "x-groundwork-client-address";

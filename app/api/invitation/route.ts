import { handleInvitationRequest } from "@/server/api/invitation/handler";

export const dynamic = "force-dynamic";

/** The invitation link's page (signed out or in): open, accept with a new password, accept as the signed-in account. */
export const POST = handleInvitationRequest;

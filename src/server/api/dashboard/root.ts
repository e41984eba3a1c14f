import { addMemberProcedure } from "../routers/dashboard/members/add-member";
import { listMembersProcedure } from "../routers/dashboard/members/list-members";
import { removeMemberProcedure } from "../routers/dashboard/members/remove-member";
import { setMemberRoleProcedure } from "../routers/dashboard/members/set-member-role";
import { getKeyProcedure } from "../routers/dashboard/keys/get-key";
import { listKeysProcedure } from "../routers/dashboard/keys/list-keys";
import { mintKeyProcedure } from "../routers/dashboard/keys/mint-key";
import { revokeKeyProcedure } from "../routers/dashboard/keys/revoke-key";
import { createOrganizationProcedure } from "../routers/dashboard/organizations/create-organization";
import { deleteOrganizationProcedure } from "../routers/dashboard/organizations/delete-organization";
import { getOrganizationProcedure } from "../routers/dashboard/organizations/get-organization";
import { listOrganizationsProcedure } from "../routers/dashboard/organizations/list-organizations";
import { approveDeletionsProcedure } from "../routers/dashboard/sources/approve-deletions";
import { createSourceProcedure } from "../routers/dashboard/sources/create-source";
import { deletionReviewProcedure } from "../routers/dashboard/sources/deletion-review";
import { getSourceProcedure } from "../routers/dashboard/sources/get-source";
import { listRowsProcedure } from "../routers/dashboard/sources/list-rows";
import { listSourcesProcedure } from "../routers/dashboard/sources/list-sources";
import { supportBoardProcedure } from "../routers/dashboard/sources/support-board";
import { syncActivityProcedure } from "../routers/dashboard/sources/sync-activity";
import { syncHistoryProcedure } from "../routers/dashboard/sources/sync-history";
import { syncNowProcedure } from "../routers/dashboard/sources/sync-now";
import { testConnectionProcedure } from "../routers/dashboard/sources/test-connection";
import { createUserProcedure } from "../routers/dashboard/users/create-user";
import { listUsersProcedure } from "../routers/dashboard/users/list-users";
import { meProcedure } from "../routers/dashboard/viewer/me";
import { createChannelProcedure } from "../routers/dashboard/alerts/create-channel";
import { createRuleProcedure } from "../routers/dashboard/alerts/create-rule";
import { deleteChannelProcedure } from "../routers/dashboard/alerts/delete-channel";
import { deleteRuleProcedure } from "../routers/dashboard/alerts/delete-rule";
import { listChannelsProcedure } from "../routers/dashboard/alerts/list-channels";
import { listDeliveriesProcedure } from "../routers/dashboard/alerts/list-deliveries";
import { listRulesProcedure } from "../routers/dashboard/alerts/list-rules";
import { openAlertsProcedure } from "../routers/dashboard/alerts/open-alerts";
import { testChannelProcedure } from "../routers/dashboard/alerts/test-channel";
import { createDashboardCallerFactory, createDashboardRouter } from "./trpc";

/** The dashboard's internal procedures (served at /api/trpc, never under /api/v1). */
export const dashboardRouter = createDashboardRouter({
  viewer: createDashboardRouter({ me: meProcedure }),
  organizations: createDashboardRouter({
    list: listOrganizationsProcedure,
    get: getOrganizationProcedure,
    create: createOrganizationProcedure,
    delete: deleteOrganizationProcedure,
  }),
  keys: createDashboardRouter({ list: listKeysProcedure, get: getKeyProcedure, mint: mintKeyProcedure, revoke: revokeKeyProcedure }),
  members: createDashboardRouter({
    list: listMembersProcedure,
    add: addMemberProcedure,
    setRole: setMemberRoleProcedure,
    remove: removeMemberProcedure,
  }),
  users: createDashboardRouter({ list: listUsersProcedure, create: createUserProcedure }),
  sources: createDashboardRouter({
    list: listSourcesProcedure,
    board: supportBoardProcedure,
    get: getSourceProcedure,
    history: syncHistoryProcedure,
    activity: syncActivityProcedure,
    rows: listRowsProcedure,
    review: deletionReviewProcedure,
    syncNow: syncNowProcedure,
    approveDeletions: approveDeletionsProcedure,
    create: createSourceProcedure,
    testConnection: testConnectionProcedure,
  }),
  alerts: createDashboardRouter({
    channels: listChannelsProcedure,
    createChannel: createChannelProcedure,
    deleteChannel: deleteChannelProcedure,
    testChannel: testChannelProcedure,
    rules: listRulesProcedure,
    createRule: createRuleProcedure,
    deleteRule: deleteRuleProcedure,
    deliveries: listDeliveriesProcedure,
    open: openAlertsProcedure,
  }),
});

export type DashboardRouter = typeof dashboardRouter;
export const createDashboardCaller = createDashboardCallerFactory(dashboardRouter);

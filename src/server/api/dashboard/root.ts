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
import { organizationGridProcedure } from "../routers/dashboard/organizations/organization-grid";
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
import { testConnectionProcedure, testSavedConnectionProcedure } from "../routers/dashboard/sources/test-connection";
import { deleteSourceProcedure } from "../routers/dashboard/sources/delete-source";
import { editSourceProcedure } from "../routers/dashboard/sources/edit-source";
import { pauseSourceProcedure, resumeSourceProcedure } from "../routers/dashboard/sources/pause-source";
import { resyncSourceProcedure } from "../routers/dashboard/sources/resync-source";
import { sourceConnectionProcedure } from "../routers/dashboard/sources/source-connection";
import { createUserProcedure } from "../routers/dashboard/users/create-user";
import { listUsersProcedure } from "../routers/dashboard/users/list-users";
import { meProcedure } from "../routers/dashboard/viewer/me";
import { disableUserProcedure } from "../routers/dashboard/users/disable-user";
import { enableUserProcedure } from "../routers/dashboard/users/enable-user";
import { resetPasswordProcedure } from "../routers/dashboard/users/reset-password";
import { unlockUserProcedure } from "../routers/dashboard/users/unlock-user";
import { changePasswordProcedure } from "../routers/dashboard/viewer/change-password";
import { signOutEverywhereProcedure } from "../routers/dashboard/viewer/sign-out-everywhere";
import { acceptInvitationProcedure, declineInvitationProcedure, myInvitationsProcedure } from "../routers/dashboard/viewer/invitations";
import { cancelInvitationProcedure, listInvitationsProcedure } from "../routers/dashboard/members/invitations";
import { listAuditProcedure } from "../routers/dashboard/audit/list-audit";
import { keyRequestsProcedure } from "../routers/dashboard/keys/key-requests";
import { keyUsageProcedure } from "../routers/dashboard/keys/key-usage";
import { getRequestProcedure } from "../routers/dashboard/requests/get-request";
import { createFormProcedure } from "../routers/dashboard/forms/create-form";
import { deleteFormProcedure } from "../routers/dashboard/forms/delete-form";
import { getFormProcedure } from "../routers/dashboard/forms/get-form";
import { listFormsProcedure } from "../routers/dashboard/forms/list-forms";
import { listFormRecordsProcedure } from "../routers/dashboard/forms/list-records";
import { recordsPerDayProcedure } from "../routers/dashboard/forms/records-per-day";
import { renameFormProcedure } from "../routers/dashboard/forms/rename-form";
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
  viewer: createDashboardRouter({
    me: meProcedure,
    changePassword: changePasswordProcedure,
    signOutEverywhere: signOutEverywhereProcedure,
    invitations: myInvitationsProcedure,
    acceptInvitation: acceptInvitationProcedure,
    declineInvitation: declineInvitationProcedure,
  }),
  organizations: createDashboardRouter({
    list: listOrganizationsProcedure,
    get: getOrganizationProcedure,
    create: createOrganizationProcedure,
    delete: deleteOrganizationProcedure,
    grid: organizationGridProcedure,
  }),
  keys: createDashboardRouter({ list: listKeysProcedure, get: getKeyProcedure, mint: mintKeyProcedure, revoke: revokeKeyProcedure }),
  members: createDashboardRouter({
    list: listMembersProcedure,
    add: addMemberProcedure,
    setRole: setMemberRoleProcedure,
    remove: removeMemberProcedure,
    invitations: listInvitationsProcedure,
    cancelInvitation: cancelInvitationProcedure,
  }),
  users: createDashboardRouter({
    list: listUsersProcedure,
    create: createUserProcedure,
    disable: disableUserProcedure,
    enable: enableUserProcedure,
    resetPassword: resetPasswordProcedure,
    unlock: unlockUserProcedure,
  }),
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
    testSavedConnection: testSavedConnectionProcedure,
    connection: sourceConnectionProcedure,
    edit: editSourceProcedure,
    pause: pauseSourceProcedure,
    resume: resumeSourceProcedure,
    resync: resyncSourceProcedure,
    delete: deleteSourceProcedure,
  }),
  requests: createDashboardRouter({ get: getRequestProcedure }),
  usage: createDashboardRouter({ key: keyUsageProcedure, keyRequests: keyRequestsProcedure }),
  audit: createDashboardRouter({ list: listAuditProcedure }),
  forms: createDashboardRouter({
    list: listFormsProcedure,
    get: getFormProcedure,
    create: createFormProcedure,
    rename: renameFormProcedure,
    delete: deleteFormProcedure,
    records: listFormRecordsProcedure,
    perDay: recordsPerDayProcedure,
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

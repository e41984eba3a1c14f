import { addMemberProcedure } from "./members/add-member";
import { listMembersProcedure } from "./members/list-members";
import { removeMemberProcedure } from "./members/remove-member";
import { setMemberRoleProcedure } from "./members/set-member-role";
import { getKeyProcedure } from "./keys/get-key";
import { listKeysProcedure } from "./keys/list-keys";
import { mintKeyProcedure } from "./keys/mint-key";
import { revokeKeyProcedure } from "./keys/revoke-key";
import { cancelRevocationProcedure, scheduleRevocationProcedure } from "./keys/schedule-revocation";
import { createOrganizationProcedure } from "./organizations/create-organization";
import { deleteOrganizationProcedure } from "./organizations/delete-organization";
import { getOrganizationProcedure } from "./organizations/get-organization";
import { organizationGridProcedure } from "./organizations/organization-grid";
import { organizationHealthProcedure } from "./organizations/organization-health";
import { pickOrganizationsProcedure } from "./organizations/pick-organizations";
import { approveDeletionsProcedure } from "./sources/approve-deletions";
import { createSourceProcedure } from "./sources/create-source";
import { deletionReviewProcedure } from "./sources/deletion-review";
import { heldRowsProcedure } from "./sources/held-rows";
import { getSourceProcedure } from "./sources/get-source";
import { browseRowsProcedure } from "./sources/browse-rows";
import { listSourcesProcedure } from "./sources/list-sources";
import { supportBoardProcedure } from "./sources/support-board";
import { syncActivityProcedure } from "./sources/sync-activity";
import { syncHistoryProcedure } from "./sources/sync-history";
import { syncNowProcedure } from "./sources/sync-now";
import { testConnectionProcedure, testSavedConnectionProcedure } from "./sources/test-connection";
import { discoverSavedSourceProcedure, discoverSourceProcedure } from "./sources/discover-source";
import { deleteSourceProcedure } from "./sources/delete-source";
import { editSourceProcedure } from "./sources/edit-source";
import { pauseSourceProcedure, resumeSourceProcedure } from "./sources/pause-source";
import { resyncSourceProcedure } from "./sources/resync-source";
import { sourceConnectionProcedure } from "./sources/source-connection";
import { createUserProcedure } from "./users/create-user";
import { listUsersProcedure } from "./users/list-users";
import { meProcedure } from "./viewer/me";
import { disableUserProcedure } from "./users/disable-user";
import { enableUserProcedure } from "./users/enable-user";
import { resetPasswordProcedure } from "./users/reset-password";
import { unlockUserProcedure } from "./users/unlock-user";
import { changePasswordProcedure } from "./viewer/change-password";
import { signOutEverywhereProcedure } from "./viewer/sign-out-everywhere";
import { acceptInvitationProcedure, declineInvitationProcedure, myInvitationsProcedure } from "./viewer/invitations";
import { cancelInvitationProcedure, listInvitationsProcedure, resendInvitationProcedure } from "./members/invitations";
import { getAuditProcedure } from "./audit/get-audit";
import { listAuditProcedure } from "./audit/list-audit";
import { keyRequestsProcedure } from "./keys/key-requests";
import { keyUsageProcedure } from "./keys/key-usage";
import { getRequestProcedure } from "./requests/get-request";
import { listRequestsProcedure } from "./requests/list-requests";
import { createFormProcedure } from "./forms/create-form";
import { deleteFormProcedure } from "./forms/delete-form";
import { getFormProcedure } from "./forms/get-form";
import { listFormsProcedure } from "./forms/list-forms";
import { listFormRecordsProcedure } from "./forms/list-records";
import { recordsPerDayProcedure } from "./forms/records-per-day";
import { listSubmittersProcedure } from "./forms/list-submitters";
import { renameFormProcedure } from "./forms/rename-form";
import { createChannelProcedure } from "./alerts/create-channel";
import { createRuleProcedure } from "./alerts/create-rule";
import { deleteChannelProcedure } from "./alerts/delete-channel";
import { deleteRuleProcedure } from "./alerts/delete-rule";
import { muteRuleProcedure } from "./alerts/mute-rule";
import { updateRuleProcedure } from "./alerts/update-rule";
import { listChannelsProcedure } from "./alerts/list-channels";
import { listDeliveriesProcedure } from "./alerts/list-deliveries";
import { listRulesProcedure } from "./alerts/list-rules";
import { openAlertsProcedure } from "./alerts/open-alerts";
import { testChannelProcedure } from "./alerts/test-channel";
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
    get: getOrganizationProcedure,
    create: createOrganizationProcedure,
    delete: deleteOrganizationProcedure,
    grid: organizationGridProcedure,
    health: organizationHealthProcedure,
    pick: pickOrganizationsProcedure,
  }),
  keys: createDashboardRouter({
    list: listKeysProcedure,
    get: getKeyProcedure,
    mint: mintKeyProcedure,
    revoke: revokeKeyProcedure,
    scheduleRevocation: scheduleRevocationProcedure,
    cancelRevocation: cancelRevocationProcedure,
  }),
  members: createDashboardRouter({
    list: listMembersProcedure,
    add: addMemberProcedure,
    setRole: setMemberRoleProcedure,
    remove: removeMemberProcedure,
    invitations: listInvitationsProcedure,
    resendInvitation: resendInvitationProcedure,
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
    rows: browseRowsProcedure,
    review: deletionReviewProcedure,
    heldRows: heldRowsProcedure,
    syncNow: syncNowProcedure,
    approveDeletions: approveDeletionsProcedure,
    create: createSourceProcedure,
    testConnection: testConnectionProcedure,
    testSavedConnection: testSavedConnectionProcedure,
    discover: discoverSourceProcedure,
    discoverSaved: discoverSavedSourceProcedure,
    connection: sourceConnectionProcedure,
    edit: editSourceProcedure,
    pause: pauseSourceProcedure,
    resume: resumeSourceProcedure,
    resync: resyncSourceProcedure,
    delete: deleteSourceProcedure,
  }),
  requests: createDashboardRouter({ get: getRequestProcedure, list: listRequestsProcedure }),
  usage: createDashboardRouter({ key: keyUsageProcedure, keyRequests: keyRequestsProcedure }),
  audit: createDashboardRouter({ list: listAuditProcedure, get: getAuditProcedure }),
  forms: createDashboardRouter({
    list: listFormsProcedure,
    get: getFormProcedure,
    create: createFormProcedure,
    rename: renameFormProcedure,
    delete: deleteFormProcedure,
    records: listFormRecordsProcedure,
    perDay: recordsPerDayProcedure,
    submitters: listSubmittersProcedure,
  }),
  alerts: createDashboardRouter({
    channels: listChannelsProcedure,
    createChannel: createChannelProcedure,
    deleteChannel: deleteChannelProcedure,
    testChannel: testChannelProcedure,
    rules: listRulesProcedure,
    createRule: createRuleProcedure,
    updateRule: updateRuleProcedure,
    muteRule: muteRuleProcedure,
    deleteRule: deleteRuleProcedure,
    deliveries: listDeliveriesProcedure,
    open: openAlertsProcedure,
  }),
});

export type DashboardRouter = typeof dashboardRouter;
export const createDashboardCaller = createDashboardCallerFactory(dashboardRouter);

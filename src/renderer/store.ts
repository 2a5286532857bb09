/**
 * One store from one slice per domain. Actions are named for who starts them: what happened in
 * main or came back from it is an event in the past tense (`messageReceived`,
 * `conversationsListed`); what the user asks for is a request in the imperative (`createGroup`,
 * `sendMessage`). `set` updaters only compute the next state: calls to main, timers and other
 * side effects run in the action around them. Main's database is the truth; this is a view of
 * it and persists nothing of the domain.
 */
import { create } from 'zustand';
import { createBackupSlice, type BackupSlice } from './backup/backup-slice.js';
import { createChangesSlice, type ChangesSlice } from './messages/changes-slice.js';
import { createConversationsSlice, type ConversationsSlice } from './chats/conversations-slice.js';
import { createDirectorySlice, type DirectorySlice } from './directory/directory-slice.js';
import { createFilesSlice, type FilesSlice } from './files/files-slice.js';
import { createGroupsSlice, type GroupsSlice } from './groups/groups-slice.js';
import { createHandlesSlice, type HandlesSlice } from './people/handles-slice.js';
import { createHistorySlice, type HistorySlice } from './backup/history-slice.js';
import { createInvitationsSlice, type InvitationsSlice } from './requests/invitations-slice.js';
import { createLiveSlice, type LiveSlice } from './conversation/live-slice.js';
import { createMessagesSlice, type MessagesSlice } from './messages/messages-slice.js';
import { createRelationshipsSlice, type RelationshipsSlice } from './people/relationships-slice.js';
import { createRequestsSlice, type RequestsSlice } from './requests/requests-slice.js';
import { createSearchSlice, type SearchSlice } from './search/search-slice.js';
import { createSessionSlice, type SessionSlice } from './onboarding/session-slice.js';
import { createSettingsSlice, type SettingsSlice } from './settings/settings-slice.js';
import { createStakesSlice, type StakesSlice } from './stakes/stakes-slice.js';
import { createTrustSlice, type TrustSlice } from './trust/trust-slice.js';
import { createUiSlice, type UiSlice } from './shell/ui-slice.js';

export type Store = SessionSlice &
  ConversationsSlice &
  MessagesSlice &
  RequestsSlice &
  InvitationsSlice &
  DirectorySlice &
  GroupsSlice &
  SettingsSlice &
  StakesSlice &
  UiSlice &
  LiveSlice &
  HandlesSlice &
  RelationshipsSlice &
  ChangesSlice &
  TrustSlice &
  HistorySlice &
  SearchSlice &
  BackupSlice &
  FilesSlice;

export const useStore = create<Store>()((...a) => ({
  ...createSessionSlice(...a),
  ...createConversationsSlice(...a),
  ...createMessagesSlice(...a),
  ...createRequestsSlice(...a),
  ...createInvitationsSlice(...a),
  ...createDirectorySlice(...a),
  ...createGroupsSlice(...a),
  ...createSettingsSlice(...a),
  ...createHistorySlice(...a),
  ...createStakesSlice(...a),
  ...createUiSlice(...a),
  ...createLiveSlice(...a),
  ...createHandlesSlice(...a),
  ...createRelationshipsSlice(...a),
  ...createChangesSlice(...a),
  ...createTrustSlice(...a),
  ...createSearchSlice(...a),
  ...createBackupSlice(...a),
  ...createFilesSlice(...a),
}));

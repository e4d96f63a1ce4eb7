import type { z } from "zod";
import type { errorSchema, paginationSchema } from "@/lib/http/list-query";
import type { agentResponseSchema, agentSchema, loginRequestSchema } from "@/lib/auth/session-schemas";
import type { listWaNumbersResponse, waNumberSchema } from "@/lib/numbers/schemas";
import type { listTemplatesResponse, templateListItemSchema } from "@/lib/templates/schemas";
import type {
  createLabelBody,
  labelListItemSchema,
  labelResponse,
  labelSchema,
  listLabelsResponse,
  updateLabelBody,
} from "@/lib/labels/schemas";
import type { contactLabelsResponse, contactSchema, listContactsResponse } from "@/lib/contacts/schemas";
import type { botSchema, listBotsResponse } from "@/lib/bots/schemas";
import type { campaignSchema, listCampaignsResponse } from "@/lib/campaigns/schemas";
import type { historyEntrySchema, historyResponseSchema } from "@/lib/messages/history-schemas";
import type { sendTemplateResponse } from "@/lib/messages/send-schemas";
import type { uploadMediaResponse } from "@/lib/media/schemas";
import type { teamSettingsSchema } from "@/lib/teams/settings-schemas";
import type { sandboxInboundInput, sandboxInboundResponse } from "@/lib/meta-webhooks/schemas";
import type { conversationResponse, conversationSchema, listConversationsResponse } from "@/lib/conversations/schemas";
import type { conversationMessagesResponse } from "@/lib/conversations/thread-schemas";
import type {
  broadcastCounts,
  broadcastResponse,
  broadcastSchema,
  broadcastUpdatedEvent,
  createBroadcastRequest,
  listBroadcastsResponse,
  RecipientStatusFilter,
  recipientSchema,
  recipientsResponse,
  timelinePoint,
  timelineResponse,
  messagingLimitPlan,
  messagingLimitPreviewResponse,
} from "@/lib/broadcasts/schemas";
import type { audienceSchema, audienceSizeResponse } from "@/lib/audiences/schemas";
import type {
  importIssueSchema,
  importPreviewResponse,
  importPreviewSchema,
  importResultSchema,
  importStreamLine,
} from "@/lib/contacts/import-schemas";

/**
 * Shapes of /api/v1 answers as the dashboard reads them: inferred from the server's own zod
 * response schemas (the ones the OpenAPI document is built from), never restated. Type-only
 * imports: nothing of the server reaches the browser bundle.
 */
export type Pagination = z.infer<typeof paginationSchema>;
export type FieldErrors = NonNullable<z.infer<typeof errorSchema>["errors"]>;

export type Agent = z.infer<typeof agentSchema>;
export type WaNumber = z.infer<typeof waNumberSchema>;
export type Template = z.infer<typeof templateListItemSchema>;
export type Label = z.infer<typeof labelSchema>;
/** A label as the labels list gives it: with `contacts_count`. */
export type LabelListItem = z.infer<typeof labelListItemSchema>;
export type Contact = z.infer<typeof contactSchema>;
export type Bot = z.infer<typeof botSchema>;
export type Campaign = z.infer<typeof campaignSchema>;
/** A history record with the extras the dashboard asks for (`include=update_id,error,routed_to,provider_message_id`). */
export type Message = z.infer<typeof historyEntrySchema>;

export type AgentResponse = z.infer<typeof agentResponseSchema>;
export type LoginInput = z.input<typeof loginRequestSchema>;
export type WaNumberList = z.infer<typeof listWaNumbersResponse>;
export type TemplateList = z.infer<typeof listTemplatesResponse>;
export type LabelList = z.infer<typeof listLabelsResponse>;
export type LabelResponse = z.infer<typeof labelResponse>;
export type LabelInput = z.input<typeof createLabelBody>;
export type LabelUpdate = z.input<typeof updateLabelBody>;
export type ContactList = z.infer<typeof listContactsResponse>;
export type ContactLabelsResponse = z.infer<typeof contactLabelsResponse>;
export type BotList = z.infer<typeof listBotsResponse>;
export type CampaignList = z.infer<typeof listCampaignsResponse>;
export type HistoryPage = z.infer<typeof historyResponseSchema>;
export type SendTemplateResponse = z.infer<typeof sendTemplateResponse>;
export type UploadMediaResponse = z.infer<typeof uploadMediaResponse>;
export type SandboxReplyInput = z.input<typeof sandboxInboundInput>;
export type SandboxReplyResponse = z.infer<typeof sandboxInboundResponse>;
export type Conversation = z.infer<typeof conversationSchema>;
export type ConversationList = z.infer<typeof listConversationsResponse>;
export type ConversationResponse = z.infer<typeof conversationResponse>;
/** A page of a conversation's messages (the inbox thread), newest first. */
export type ConversationMessagesPage = z.infer<typeof conversationMessagesResponse>;
/** The replies API answers like the template send: `{message, data: {update_id}}`. */
export type SendReplyResponse = SendTemplateResponse;

export type Broadcast = z.infer<typeof broadcastSchema>;
export type BroadcastStatus = Broadcast["status"];
export type BroadcastCounts = z.infer<typeof broadcastCounts>;
export type AudienceRule = z.output<typeof audienceSchema>;
export type BroadcastResponse = z.infer<typeof broadcastResponse>;
export type BroadcastList = z.infer<typeof listBroadcastsResponse>;
export type BroadcastUpdatedEvent = z.infer<typeof broadcastUpdatedEvent>;
export type CreateBroadcastInput = z.input<typeof createBroadcastRequest>;
export type MessagingLimitPlan = z.infer<typeof messagingLimitPlan>;
export type MessagingLimitPreviewResponse = z.infer<typeof messagingLimitPreviewResponse>;
export type MessagingLimitPreview = MessagingLimitPreviewResponse["data"];
export type Recipient = z.infer<typeof recipientSchema>;
export type RecipientList = z.infer<typeof recipientsResponse>;
/** A status the recipients list filters by (CANCELLED and REJECTED beside the message statuses). */
export type RecipientStatus = RecipientStatusFilter;
export type TimelinePoint = z.infer<typeof timelinePoint>;
export type TimelineResponse = z.infer<typeof timelineResponse>;
export type AudienceSizeResponse = z.infer<typeof audienceSizeResponse>;
/** The contacts import's report: counts, and the rejected rows and warnings with their lines. */
export type ImportReport = z.infer<typeof importResultSchema>;
/** One rejected row or warning of the report. */
export type ImportIssue = z.infer<typeof importIssueSchema>;
/** A dry run of the import (`dry_run=1`): the labels of the file the team lacks. */
export type ImportPreview = z.infer<typeof importPreviewSchema>;
export type ImportPreviewResponse = z.infer<typeof importPreviewResponse>;
/** One NDJSON line of a streamed contacts import (progress, done or error). */
export type ImportLine = z.infer<typeof importStreamLine>;

export type TeamSettings = z.infer<typeof teamSettingsSchema>;

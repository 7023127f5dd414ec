import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  ForwardedCommandSchema,
  InlinePhotoSchema,
  MAX_MESSAGE_PHOTOS,
  type CommandResult,
  type ConversationCommand,
  type ConversationRecord,
  type ElicitResponseRequest,
  type ForwardedCommand,
  type InlinePhoto,
  type Json,
  type NodeAndHead,
} from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { CommandForwarder } from '../cluster/command-forwarder';
import { ApiError } from '../errors/api-error';
import { PhotoIntake } from '../blobs/photo-intake';
import { ConversationTraces } from '../tracing/conversation-traces';
import { fieldProblems, invalidRequest } from '../validation/field-problems';
import { ConversationAccess } from './conversation-access';
import { ConversationActors } from './conversation-actors';

/** Photos sent inline with an answer (a form's photo field), stored before the answer is. */
const InlinePhotos = InlinePhotoSchema.array().max(MAX_MESSAGE_PHOTOS);

/** The name every forwarded command travels under: its kind is inside the value. */
const FORWARDED = 'conversation-command';

/**
 * Every command that needs a conversation's runner (reading its live status, talking to it,
 * moving HEAD under it) runs at the one api process that drives the conversation: the holder of
 * its lease. Here when this process holds or takes the lease; otherwise it is forwarded to the
 * holder over Redis as the same ConversationCommand value, parsed again there (never cast: one
 * that does not parse is refused and logged, never applied), and answered as if it had run here;
 * when the holder died, after its lease expires this process takes the conversation over and
 * rebuilds the runner from the tree.
 *
 * Where it runs, a command is a letter to the conversation's actor (ConversationActor), handled one
 * at a time, in the order they arrived, whichever socket, tab or process sent them, by its one
 * exhaustive `switch`. So a rewind never interleaves with a message, two messages never race for one HEAD,
 * and every client hears the moves in the order the reflog keeps them. Access is checked where the
 * command arrives and again where it runs.
 */
@Injectable()
export class ConversationCommands implements OnModuleInit {
  private readonly logger = new Logger('Commands');

  constructor(
    private readonly forwarder: CommandForwarder,
    private readonly access: ConversationAccess,
    private readonly actors: ConversationActors,
    private readonly photos: PhotoIntake,
    private readonly traces: ConversationTraces,
  ) {}

  onModuleInit(): void {
    this.forwarder.handle(FORWARDED, async (payload) => {
      const parsed = ForwardedCommandSchema.safeParse(payload);
      if (!parsed.success) {
        this.logger.warn(`refused a forwarded command that does not parse: ${parsed.error.message}`);
        throw invalidRequest(fieldProblems(parsed.error, 'command'));
      }
      const { user, conversationId, command } = parsed.data;
      return this.traces.command(conversationId, command.kind, async () => {
        const record = await this.access.owned(user, conversationId);
        return wire(await this.perform(user, record, command));
      });
    });
  }

  /**
   * Runs `command` on the conversation where it belongs (here, or at the process that drives it),
   * after the commands that came before it. The caller checked the user may touch `record`.
   */
  run<C extends ConversationCommand>(
    user: AuthUser,
    record: ConversationRecord,
    command: C,
  ): Promise<CommandResult<C['kind']>> {
    const forwarded: ForwardedCommand = { user, conversationId: record.id, command };
    return this.traces.command(record.id, command.kind, () =>
      this.forwarder.run(record.id, FORWARDED, wire(forwarded), async () =>
        wire(await this.perform(user, record, command)),
      ),
    ) as Promise<CommandResult<C['kind']>>;
  }

  /**
   * A message as a request sends it: its photos are checked, prepared and stored where they arrive
   * (PhotoIntake), before anything forwards them or writes a node; from here on a photo is its
   * Photo reference, never its bytes.
   */
  async send(
    user: AuthUser,
    record: ConversationRecord,
    message: { text: string; photos?: InlinePhoto[] | undefined; expectedHead?: string | undefined },
  ): Promise<NodeAndHead> {
    const { photos: inline, ...rest } = message;
    const photos = await this.photos.storeAll(inline, 'photos');
    return this.run(user, record, { kind: 'send', ...rest, ...(photos ? { photos } : {}) });
  }

  /**
   * An answer as a request sends it. One in the person's own words (`other`) or to the chat prompt
   * may carry photos in `content.photos`: sent inline, stored as a message's are. A reference
   * (`{sha256, …}`) in a request is refused: naming a blob is not proof of having its bytes, and
   * would let anyone who learnt a hash read someone else's photo through their own node.
   */
  async respond(
    user: AuthUser,
    record: ConversationRecord,
    elicitId: string,
    answer: ElicitResponseRequest,
  ): Promise<NodeAndHead> {
    const content = answer.content;
    if (typeof content === 'object' && content !== null && !Array.isArray(content)) {
      const given = content['photos'];
      const inline = given === undefined ? undefined : InlinePhotos.safeParse(given);
      if (inline?.success) {
        const photos = await this.photos.storeAll(inline.data, 'content.photos');
        answer = { ...answer, content: { ...content, photos: (photos ?? []) as unknown as Json } };
      } else if (
        Array.isArray(given) &&
        given.some((p) => typeof p === 'object' && p !== null && 'sha256' in p)
      ) {
        throw new ApiError('invalid_request', 'photos are sent inline, as {mediaType, data}', [
          { field: 'content.photos', message: 'must be photos as {mediaType, data} (base64)' },
        ]);
      }
    }
    return this.run(user, record, { kind: 'respond', elicitId, answer });
  }

  /** Runs a command as a letter to its conversation's actor, after the commands that came before it. */
  private perform(
    user: AuthUser,
    record: ConversationRecord,
    command: ConversationCommand,
  ): Promise<CommandResult<ConversationCommand['kind']>> {
    return this.actors.command(user, record, command);
  }
}

/**
 * The wire types are plain JSON by construction (zod-parsed requests, stored nodes, ISO times), so
 * a value crosses to another process as it is; this is the one place that says so to the compiler.
 */
function wire(value: unknown): Json {
  return value as Json;
}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  InlinePhotoSchema,
  MAX_MESSAGE_PHOTOS,
  type Conversation,
  type ConversationRecord,
  type ElicitEvent,
  type ElicitResponseRequest,
  type HeadMove,
  type InlinePhoto,
  type Json,
  type NodeAndHead,
  type Photo,
  type TreeNode,
} from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { CommandForwarder } from '../cluster/command-forwarder';
import { ApiError } from '../errors/api-error';
import { PhotoIntake } from '../blobs/photo-intake';
import { ConversationAccess } from './conversation-access';
import { ConversationViews } from './conversation-views';
import { ConversationsService } from './conversations.service';
import { HeadMovesService } from './head-moves.service';
import type { ConversationActor } from './conversation-actor';
import { ConversationActors } from './conversation-actors';

/** Photos sent inline with an answer (a form's photo field), stored before the answer is. */
const InlinePhotos = InlinePhotoSchema.array().max(MAX_MESSAGE_PHOTOS);

/** What each command takes besides its user and conversation, and what it answers. */
interface CommandTypes {
  view: { args: Record<string, never>; result: Conversation };
  pending: { args: Record<string, never>; result: ElicitEvent[] };
  send: {
    args: { text: string; photos?: Photo[] | undefined; expectedHead?: string | undefined };
    result: { node: TreeNode; head: string };
  };
  respond: {
    args: { elicitId: string; answer: ElicitResponseRequest };
    result: { node: TreeNode; head: string };
  };
  progress: { args: { elicitId: string; payload: Json }; result: Record<string, never> };
  cancel: { args: Record<string, never>; result: { head: string } };
  rewind: { args: { to: string; expectedHead?: string | undefined }; result: HeadMove };
  edit: { args: { nodeId: string; text: string; expectedHead?: string | undefined }; result: NodeAndHead };
  regenerate: { args: { nodeId: string; expectedHead?: string | undefined }; result: { head: string } };
  recover: { args: { reflogId: string }; result: HeadMove };
  archive: { args: Record<string, never>; result: Record<string, never> };
}
type CommandName = keyof CommandTypes;
type Command<N extends CommandName> = (
  user: AuthUser,
  record: ConversationRecord,
  args: CommandTypes[N]['args'],
  actor: ConversationActor,
) => Promise<CommandTypes[N]['result']>;

/** What travels to the driving process: who asks, about which conversation, with what. */
interface Forwarded {
  user: AuthUser;
  conversationId: string;
  args: unknown;
}

/**
 * Every command that needs a conversation's runner (reading its live status, talking to it,
 * moving HEAD under it) runs at the one api process that drives the conversation: the holder of
 * its lease. Here when this process holds or takes the lease; otherwise it is forwarded to the
 * holder over Redis and answered as if it had run here; when the holder died, after its lease
 * expires this process takes the conversation over and rebuilds the runner from the tree.
 *
 * Each command is written once, in `commands`: the local call and the forwarded one run the same
 * function. Access is checked where the command arrives and again where it runs.
 *
 * Where it runs, each command is a letter to the conversation's actor (`perform`,
 * ConversationActor), handled one at a time, in the order they arrived, whichever socket, tab or
 * process sent them. So a rewind never interleaves with a message, two messages never race for
 * one HEAD, and every client hears the moves in the order the reflog keeps them.
 */
@Injectable()
export class ConversationCommands implements OnModuleInit {
  private readonly commands: { [N in CommandName]: Command<N> } = {
    view: (_user, record, _args, actor) => this.views.live(record, actor),
    pending: (_user, record, _args, actor) => actor.pendingEvents(record),
    send: (user, record, args, actor) => this.conversations.send(user, record, actor, args),
    respond: (user, record, { elicitId, answer }, actor) =>
      this.conversations.respond(user, record, actor, elicitId, answer),
    progress: async (_user, record, { elicitId, payload }, actor) => {
      const runner = await actor.runner(record);
      const sent = runner.elicits.progress(elicitId, payload);
      if (!sent.ok) throw new ApiError('not_found', sent.error.message);
      return {};
    },
    cancel: (user, _record, _args, actor) => this.moves.cancel(user, actor),
    rewind: (user, record, { to, expectedHead }, actor) =>
      this.moves.rewind(user, record, actor, to, expectedHead),
    edit: (user, record, { nodeId, text, expectedHead }, actor) =>
      this.moves.edit(user, record, actor, nodeId, text, expectedHead),
    regenerate: (user, record, { nodeId, expectedHead }, actor) =>
      this.moves.regenerate(user, record, actor, nodeId, expectedHead),
    recover: (user, record, { reflogId }, actor) => this.moves.recover(user, record, actor, reflogId),
    archive: async (_user, record, _args, actor) => {
      await this.conversations.archive(record, actor);
      return {};
    },
  };

  constructor(
    private readonly forwarder: CommandForwarder,
    private readonly access: ConversationAccess,
    private readonly views: ConversationViews,
    private readonly conversations: ConversationsService,
    private readonly moves: HeadMovesService,
    private readonly actors: ConversationActors,
    private readonly photos: PhotoIntake,
  ) {}

  onModuleInit(): void {
    for (const name of Object.keys(this.commands) as CommandName[]) {
      this.forwarder.handle(name, async (payload) => {
        const { user, conversationId, args } = payload as unknown as Forwarded;
        const record = await this.access.owned(user, conversationId);
        return wire(await this.perform(name, user, record, args as CommandTypes[CommandName]['args']));
      });
    }
  }

  /** PROTOCOL.md's Conversation with its live status and pending elicit. */
  view(user: AuthUser, record: ConversationRecord): Promise<Conversation> {
    return this.run('view', user, record, {});
  }

  /** The elicits the conversation waits on, to send a joining client again (same ids). */
  pending(user: AuthUser, record: ConversationRecord): Promise<ElicitEvent[]> {
    return this.run('pending', user, record, {});
  }

  /**
   * Photos are checked, prepared and stored where they arrive (PhotoIntake), before anything
   * forwards them to the driving process or writes a node: from here on a photo is its Photo
   * reference, never its bytes. The HTTP controller and the socket gateway both come through here.
   */
  async send(
    user: AuthUser,
    record: ConversationRecord,
    args: Omit<CommandTypes['send']['args'], 'photos'> & { photos?: InlinePhoto[] | undefined },
  ) {
    const { photos: inline, ...rest } = args;
    const photos = await this.photos.storeAll(inline, 'photos');
    return this.run('send', user, record, { ...rest, ...(photos ? { photos } : {}) });
  }

  /**
   * An answer in the person's own words (`other`) or to the chat prompt may carry photos in
   * `content.photos`: sent inline, stored as a message's are. A reference (`{sha256, …}`) in a
   * request is refused: naming a blob is not proof of having its bytes, and would let anyone who
   * learnt a hash read someone else's photo through their own node.
   */
  async respond(user: AuthUser, record: ConversationRecord, elicitId: string, answer: ElicitResponseRequest) {
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
    return this.run('respond', user, record, { elicitId, answer });
  }

  progress(user: AuthUser, record: ConversationRecord, elicitId: string, payload: Json) {
    return this.run('progress', user, record, { elicitId, payload });
  }

  cancel(user: AuthUser, record: ConversationRecord) {
    return this.run('cancel', user, record, {});
  }

  rewind(user: AuthUser, record: ConversationRecord, to: string, expectedHead?: string) {
    return this.run('rewind', user, record, { to, expectedHead });
  }

  edit(user: AuthUser, record: ConversationRecord, nodeId: string, text: string, expectedHead?: string) {
    return this.run('edit', user, record, { nodeId, text, expectedHead });
  }

  regenerate(user: AuthUser, record: ConversationRecord, nodeId: string, expectedHead?: string) {
    return this.run('regenerate', user, record, { nodeId, expectedHead });
  }

  recover(user: AuthUser, record: ConversationRecord, reflogId: string) {
    return this.run('recover', user, record, { reflogId });
  }

  async archive(user: AuthUser, record: ConversationRecord): Promise<void> {
    await this.run('archive', user, record, {});
  }

  private run<N extends CommandName>(
    name: N,
    user: AuthUser,
    record: ConversationRecord,
    args: CommandTypes[N]['args'],
  ): Promise<CommandTypes[N]['result']> {
    const payload: Forwarded = { user, conversationId: record.id, args };
    return this.forwarder.run(record.id, name, wire(payload), async () =>
      wire(await this.perform(name, user, record, args)),
    ) as Promise<CommandTypes[N]['result']>;
  }

  /** Runs a command as a letter to its conversation's actor, after the commands that came before it. */
  private perform<N extends CommandName>(
    name: N,
    user: AuthUser,
    record: ConversationRecord,
    args: CommandTypes[N]['args'],
  ): Promise<CommandTypes[N]['result']> {
    const command = this.commands[name] as Command<N>;
    return this.actors.post(record.id, (actor) => command(user, record, args, actor));
  }
}

/**
 * The wire types are plain JSON by construction (zod-parsed requests, stored nodes, ISO times), so
 * a value crosses to another process as it is; this is the one place that says so to the compiler.
 */
function wire(value: unknown): Json {
  return value as Json;
}

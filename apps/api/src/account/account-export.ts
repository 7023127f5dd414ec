import { Readable, type Writable } from 'node:stream';
import type { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { Inject, Injectable } from '@nestjs/common';
import type { ConversationRecord, ExportedAccount, ExportedConversation } from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import type { Account } from '../auth/users.repository';
import { AGENT_CATALOG } from '../agents/agent-catalog.module';
import { PgActivityStores } from '../concierge/pg-activity-store';
import { EXPORT_PHOTOS, extensionOf, photosIn, type ExportPhotos } from './export-photos';
import { ownedConversations } from './owned-conversations';
import { transcript } from './transcript';
import { ZipWriter } from './zip-writer';

/** Nodes and reflog entries read per page: a page at a time is all an export holds of a tree. */
const PAGE = 500;

const README = `# Your Sweatpants data

Everything Sweatpants kept for your account on the day of this export.

- \`account.json\`: your account: id, email, display name, when you joined. Not your password:
  it is kept only as a one-way hash, and that is not exported either.
- \`conversations.json\`: every conversation: its id, title, agent, dates, its folder, and whether
  you archived it (\`"archived": true\`, with \`archivedAt\`).
- \`conversations/<id>-<title>/\`: one folder per conversation, those you archived included: they
  are still yours (their \`conversation.json\` says \`"archived": true\` and their transcript's
  heading ends in "(archived)"); Archived in the conversation list brings one back.
  - \`transcript.md\`: the conversation as it stands (its current branch), in words: what you
    said, what the agent answered, its questions and your answers, your photos.
  - \`conversation.json\`: its title, agent, dates and \`head\` (the last message of the transcript).
  - \`tree.json\`: every message and every step of the agent, the branches you left by editing,
    rewinding or regenerating included. Each node's \`id\` is the SHA-256 of its content and its
    parent's id, so the ids chain like a git history; \`onHead\` marks the transcript's path.
  - \`reflog.json\`: every move of the conversation's current position (a message, an edit, a
    rewind, a recovery…), newest first, as git's reflog lists them.
- \`photos/<sha256>.<ext>\`: each photo you sent, once, named by the SHA-256 of its bytes; the
  transcripts show them from there.
- \`concierge.json\`: the inbox items and the people the concierge keeps for you.
`;

/**
 * GET /api/account/export: everything a person has, as a zip written while it is read (a person may
 * have many long conversations): one entry at a time, each tree and reflog a page at a time,
 * through the tree store's readers. Photos are files of their own, named by their sha-256, so one
 * sent twice is in the archive once; ExportPhotos says how a node's photo becomes bytes.
 */
@Injectable()
export class AccountExport {
  constructor(
    private readonly store: TreeStore,
    private readonly activities: PgActivityStores,
    @Inject(EXPORT_PHOTOS) private readonly photos: ExportPhotos,
    @Inject(AGENT_CATALOG) private readonly agents: AgentCatalog,
  ) {}

  /** Writes the archive to `out`; rejects (and destroys `out`) when it cannot be completed. */
  async write(account: Account, out: Writable): Promise<void> {
    const zip = new ZipWriter(out);
    await zip.add('README.md', README);
    const who: ExportedAccount = {
      id: account.id,
      email: account.email,
      displayName: account.displayName,
      createdAt: account.createdAt,
    };
    await zip.add('account.json', json(who));
    /** sha-256 → the photo's path in the archive, for those written (or null: no bytes for it) */
    const written = new Map<string, string | null>();
    const conversations = await ownedConversations(this.store, account.id);
    // The index first, so what is archived can be told without opening each folder.
    await zip.add('conversations.json', json(conversations.map(indexEntry)));
    for (const conversation of conversations) {
      await this.conversation(zip, conversation, written);
    }
    await zip.add('concierge.json', json(await this.activities.exportFor(account.id)));
    await zip.finish();
  }

  private async conversation(
    zip: ZipWriter,
    conversation: ConversationRecord,
    written: Map<string, string | null>,
  ): Promise<void> {
    const dir = folderOf(conversation);
    await zip.add(`${dir}/conversation.json`, json(exported(conversation)));
    // The photos met while tree.json streams (every node's, the discarded branches' too), by file.
    const met = new Map<string, { photo: unknown; mediaType: string }>();
    await zip.add(
      `${dir}/tree.json`,
      jsonArray(this.treePages(conversation.id), (node) => {
        for (const photo of photosIn(node.payload)) {
          const file = this.photos.identify(photo);
          if (file && !written.has(file.sha256) && !met.has(file.sha256)) {
            met.set(file.sha256, { photo, mediaType: file.mediaType });
          }
        }
      }),
    );
    await zip.add(`${dir}/reflog.json`, jsonArray(this.reflogPages(conversation.id)));
    for (const [sha256, { photo, mediaType }] of met) {
      const bytes = await this.photos.photoBytes(photo);
      const name = bytes ? `photos/${sha256}.${extensionOf(mediaType)}` : null;
      if (name && bytes) await zip.add(name, bytes);
      written.set(sha256, name);
    }
    const path = await this.store.path(conversation.id);
    const link = (photo: unknown): string | null => {
      const file = this.photos.identify(photo);
      const name = file ? written.get(file.sha256) : null;
      return name ? `../../${name}` : null;
    };
    await zip.add(
      `${dir}/transcript.md`,
      transcript(
        conversation,
        path.ok ? path.value : [],
        link,
        this.agents.get(conversation.agent)?.about.speaker,
      ),
    );
  }

  /** Every node of the conversation (TreeListingNode: with childIds and onHead), a page at a time. */
  private async *treePages(conversationId: string) {
    let after: string | undefined;
    for (;;) {
      const page = await this.store.tree(conversationId, { limit: PAGE, ...(after ? { after } : {}) });
      if (!page.ok) throw new Error(`reading the tree of ${conversationId}: ${page.error.message}`);
      yield page.value.nodes;
      if (!page.value.next) return;
      after = page.value.next;
    }
  }

  /** Every reflog entry of the conversation, newest first, a page at a time. */
  private async *reflogPages(conversationId: string) {
    let before: string | undefined;
    for (;;) {
      const page = await this.store.reflog(conversationId, { limit: PAGE, ...(before ? { before } : {}) });
      if (!page.ok) throw new Error(`reading the reflog of ${conversationId}: ${page.error.message}`);
      yield page.value.entries;
      if (!page.value.next) return;
      before = page.value.next;
    }
  }
}

/** A conversation's folder in the archive: its id, then its title as far as a folder name allows. */
function folderOf(conversation: ConversationRecord): string {
  return `conversations/${conversation.id}-${slug(conversation.title)}`;
}

/** `conversation.json`: what the conversation is, and whether its owner archived it. */
function exported(conversation: ConversationRecord): ExportedConversation {
  return {
    id: conversation.id,
    agent: conversation.agent,
    title: conversation.title,
    head: conversation.head,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    archived: conversation.archivedAt !== null,
    archivedAt: conversation.archivedAt,
  };
}

/** One entry of `conversations.json`: `conversation.json`'s fields and the folder holding the rest. */
function indexEntry(conversation: ConversationRecord): ExportedConversation & { folder: string } {
  return { ...exported(conversation), folder: folderOf(conversation) };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * A JSON array written as its pages are read, one item a line; `each` sees every item as it goes
 * (the export collects the photos of tree.json's nodes so).
 */
function jsonArray<T>(pages: AsyncIterable<readonly T[]>, each?: (item: T) => void): Readable {
  return Readable.from(
    (async function* () {
      let first = true;
      yield '[';
      for await (const page of pages) {
        for (const item of page) {
          each?.(item);
          yield `${first ? '\n' : ',\n'}  ${JSON.stringify(item)}`;
          first = false;
        }
      }
      yield first ? ']\n' : '\n]\n';
    })(),
  );
}

/** A title as part of a folder name: letters, digits and dashes, at most 40. */
function slug(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s || 'untitled';
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages sent while the agent works with nothing to ask (seed 004: requests queue by default).
 * A row is written the moment the message arrives, so nothing is lost to a crash or a restart; the
 * agent takes the oldest at its next chat prompt, writing it as a `user` node (whose payload names
 * the row's id as `queuedId`) and then deleting the row; the person may withdraw (delete) it until
 * then. So the table holds only what still waits. It is not part of the tree: a node's id hashes
 * its parent, and a queued message's parent is only known when it is taken.
 *
 * `queued_message_blobs` names the photos a waiting message holds, so blob collection (which
 * keeps any blob a foreign key still names) never takes a photo a message will carry. Rows go with
 * their conversation (ON DELETE CASCADE: account deletion and gc need no change).
 */
export class QueuedMessages1795510000000 implements MigrationInterface {
  name = 'QueuedMessages1795510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE queued_messages (
        id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
        conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        seq bigserial NOT NULL,
        text text NOT NULL,
        photos jsonb,
        author_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX queued_messages_order_idx ON queued_messages (conversation_id, seq)`);
    await q.query(`
      CREATE TABLE queued_message_blobs (
        queued_id text NOT NULL REFERENCES queued_messages (id) ON DELETE CASCADE,
        sha256 text NOT NULL REFERENCES blobs (sha256),
        PRIMARY KEY (queued_id, sha256)
      )`);
    await q.query(`CREATE INDEX queued_message_blobs_sha_idx ON queued_message_blobs (sha256)`);
    // The api queues, takes and withdraws; it never rewrites a waiting message.
    await q.query(`GRANT SELECT, INSERT, DELETE ON queued_messages, queued_message_blobs TO sweatpants_app`);
    await q.query(`GRANT USAGE ON SEQUENCE queued_messages_seq_seq TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE queued_message_blobs`);
    await q.query(`DROP TABLE queued_messages`);
  }
}

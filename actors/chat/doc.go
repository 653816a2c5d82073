// Package chat is the chat engine: the websocket gateway speaking the
// OpenIM JS SDK v3 protocol, and the actors behind it — one session actor
// per socket, one user actor per online user on this node (the fan-in of
// its sockets), one conversation actor per active 1:1 chat and one group
// actor per active group or channel. Conversation and group actors
// serialise sends, judge them by the rules kept in their own state, dedupe
// by clientMsgID, and hand them to the writer, which commits the sends of
// many conversations in one transaction (seqs assigned in the store); then
// they fan out. Deliveries to users on other nodes travel over the bus.
//
// docs/ARCHITECTURE.md tells the same story in prose; this is the map by
// identifier, for the hand-offs go-to-definition cannot follow (a mailbox
// send, a queue, a closure called on another goroutine).
//
// # The route of a send
//
// A SendMessage from the socket to the members' sockets, step by step:
// who hands over, with what, to whom (→ is a mailbox send).
//
//  1. Read. A reader goroutine woken by the epoll set (poller.run,
//     poller_linux.go; session.readBlocking, wsread.go, where there is
//     none) calls session.readReady; session.frames (wsread.go) cuts the
//     whole frames and session.admit / session.toActor
//     (session_limits.go) send each one raw: *inbound → session actor.
//  2. Call. sessionActor.Receive (actor_session.go) decodes it
//     (DecodeRequest, sdk_wire.go); session.handle runs the handler the
//     calls map names: callSend (calls_message.go) checks the message,
//     fills in the sender and sends *sendRequest → the conversation actor
//     (Engine.tellConversation, actor_conversation.go) or group actor
//     (Engine.tellGroup, actor_group.go), found or spawned in
//     Engine.live. It returns errLater: the answer comes in step 7.
//  3. Queue. conversationActor.receive / groupActor.receive:
//     pipeline.addSend (commit_pipeline.go) answers a resend of a recent
//     clientMsgID from memory or joins it to the pending one, judges a new
//     send by the actor's rules (judge, send_rules.go) and queues it.
//     Engine.startFlush takes the next batch (pipeline.take, at most
//     Config.MaxBatch), counts it (Engine.begin) and submits it as a
//     writeJob. An op (revoke, kick, mute ...) instead runs alone in a
//     goroutine (Engine.runOp) and comes back as *opDone.
//  4. Write. writer.submit (commit_writer.go) queues the job; a worker
//     (writer.run, writer.take) commits everything queued, across
//     conversations, in writer.commit, one transaction in flight unless
//     the queue outgrows it.
//  5. Store. storage.CommitChatBatch (storage/chat_batch.go): one
//     transaction takes each conversation's row lock and seqs, inserts
//     the messages and moves the senders' read seqs; a clientMsgID the
//     store holds comes back as the stored message (dup).
//  6. Back. The job's report, a closure made in Engine.startFlush, sends
//     *sendsDone → the same actor and ends the count (commits.wg).
//  7. Answer. The actor's *sendsDone case: Engine.applySends answers the
//     sender and every resend waiting on it through replyTo.send
//     (actor_session.go), which queues the SendMessage reply on the
//     socket from the actor's own goroutine (session.reply,
//     session.pushOwned; no message to the session actor). A new
//     message's reply is queued held (Engine.holdAck, session.replyHeld)
//     for the sender's flush in step 9 to take out with its conversation
//     frame in one write; releaseAcks, after step 8, tells a flush
//     gathered for the window at once (flusher.flushEarly), and releases
//     the socket itself when no flush was told meanwhile or is waiting to
//     start. The actor starts the next batch (startFlush) before it fans
//     this one out.
//  8. Deliver. Engine.deliver (engine.go) takes a *userEvent (evMsgs,
//     actor_user.go), encodes its frames once (userEvent.prepare) and, for
//     each recipient online here, Engine.fanOut puts them held on its
//     sockets (session.pushHeld: no writer woken), appends the event to
//     userEntry.pending and lists the user with the flusher (fanout.go).
//     In a cluster it also publishes on each recipient's bus subject; the
//     user actor on the other node gets the *userEvent and calls fanOut.
//  9. Flush. flusher.run, once per coalescing window, sends the
//     *userEntry → user actor: userActor.flush (actor_user.go) applies the
//     pending events to its rows and unread counts, pushes each changed
//     conversation and the total (userActor.pushOwned), then releases the
//     held sockets (session.release), unless another flush is waiting to
//     start (userEntry.flushWaiting), which releases them.
//  10. Socket. session.enqueue / session.release (actor_session.go) hand a
//     socket with frames waiting to writerPool.add (fanout.go); a pool
//     goroutine runs session.writeLoop, which writes the whole queue
//     through batchConn (batchconn.go) in one system call, once a frame
//     in it is due (session.due: held frames alone wait for release).
//
// # Who owns what
//
// State an actor owns is touched only in its Receive; a goroutine it
// starts works on a copy (convSpec) and reports back with a message. The
// rest is guarded by the lock named. Engine's parts: gateway (sockets),
// live (registries), commits, delivery, cluster (engine.go).
//
//	owner or lock (file)                   state it touches alone, or guards
//	session actor (actor_session.go)       its socket's requests, run in order; session.user
//	epoll reader (poller_linux.go)         a socket's read buffer and frame in part (session.rd),
//	                                       rate bucket, lastRead; one reader at a time
//	                                       (one-shot arming, session.reading)
//	wheel goroutine (wheel.go)             session.nextPing; a visit closes the idle, queues the
//	                                       ping (pingDue), signs out at expiresAt
//	burn sweep goroutine (burn.go)         deletes the private chat messages whose burn is due
//	                                       (chat_burns); each burn row goes with its messages
//	                                       in one transaction, so one node carries it out
//	session.mu (actor_session.go)          the outbound queue, writing, closing, closed;
//	                                       taken by any pusher
//	writer pool (fanout.go)                writes one listed socket at a time, outside session.mu
//	user actor (actor_user.go)             cached conversation rows, unread total, last total
//	                                       pushed, the user's bus subscription (cluster)
//	userEntry.pmu (actor_user.go)          pending events and flushDue: fanOut appends,
//	                                       the flush takes
//	live.users shard lock (registry.go)    userEntry.conns (copy-on-write; the actor reads)
//	flusher goroutine (fanout.go)          the held users' wheel; the due list under
//	                                       flusher.mu; userEntry.flushedAt (atomic: add,
//	                                       on fanOut's goroutine, flushes a quiet user)
//	conversation actor                     its pipeline (queue, pending and recent clientMsgIDs,
//	(actor_conversation.go)                inflight), pairRules, rowsReady
//	group actor (actor_group.go)           its pipeline, groupRules, member list, unmute timers,
//	                                       the group's bus subscription
//	writer worker (commit_writer.go)       one transaction at a time; the queue under
//	                                       writer.mu (actors add, the workers take)
//	op goroutine (Engine.runOp)            one op's transaction, on a copy of the spec
//	registry shard lock (registry.go)      which socket or actor serves an id; a sender
//	                                       enqueues and an actor retires under it
//	commits.closeMu (engine.go)            commits in flight (commits.wg): begin counts one under
//	                                       the read lock, Close waits for them under the write lock
//	dispatcher (dispatcher.go)             the queue of scheduled mailboxes of every chat actor
//	                                       in the process, and its workers
//	watchers.mu (presence_watch.go)        who watches whose presence; session.watching
//	fannedOut.mu (fanned_out.go)           the messages fanned out lately (resend of a dup)
//	socketCaps.mu (session_limits.go)      open sockets per user and platform
//	the store                              a conversation's seq (chat_conversations.max_seq,
//	                                       locked by each commit; never kept in memory)
package chat

// Package graph runs Wayfinder's agent as a state graph with LangGraph's
// semantics, because the agent needs what a plain call chain cannot give: a
// person approving a plan in the middle of a run (interrupts), the run
// surviving an app restart (checkpoints), and looking back or branching off
// an earlier point (history, forks).
//
// A graph is typed over its state S, a JSON-serialisable struct. Nodes read
// S and return an Update: writes to fields declared once with a reducer
// (LastValue, Reduce, Append, MergeByID, DedupeBy, Messages), plus Goto and
// Send for control flow. All nodes triggered together run in parallel and
// their writes merge at the end of the step, which is also when a
// checkpoint is written. Writes of finished tasks are saved as they finish,
// so after a crash or a failure only the unfinished nodes run again.
//
// A node asks a person with Interrupt; the run returns a Result carrying the
// Interrupts (an interrupt is not an error) and a later Resume re-runs the
// node from its start, where Interrupt now returns the answer. Resume at a
// static before-breakpoint runs on (a resume value there is dropped), also
// after UpdateState edited the state at it. GetState shows the newest
// checkpoint with what finished tasks of an unfinished step wrote already;
// History and a named checkpoint show checkpoints as saved.
//
// Config.Durability chooses when checkpoints reach the store, as LangGraph's
// durability does: DurabilitySync saves each step before the next starts;
// DurabilityAsync saves them in order on a goroutine while the next step
// runs, so a node waiting on a model does not also wait on the database,
// and Invoke and Resume return only once every save is done. A killed
// process then loses at most the newest steps, never a finished run or an
// interrupt that was reported. The state is encoded on that goroutine too,
// which is safe because reducers copy what they change; nodes, as in
// LangGraph, must not change the state they are given (return an Update).
// DurabilityExit saves once, where the run stops (it ends, is interrupted,
// fails or is stopped): the newest checkpoint with the writes of the step
// it stopped in, so a resume after a failure still runs only the
// unfinished tasks. A killed process loses the run in progress.
//
// Where this engine deliberately differs from LangGraph, and why:
//
//   - Routers run once at the end of the step on the merged state, not per
//     task on a private view; with typed state there is no partial view to
//     offer, and the answer only differs when parallel nodes race on the
//     field being routed on.
//   - A step with a single task does not save its writes separately: the
//     checkpoint a moment later carries them, which halves the database work
//     of a sequential graph. Parallel steps save each task's writes as it
//     finishes, so a crash re-runs only the unfinished nodes.
//   - Only the StateGraph shape exists: every input runs a __start__ step,
//     so a thread's history has one checkpoint more per input than a raw
//     Pregel graph of LangGraph's tests. Breakpoints are named; there is no
//     "*" wildcard. There are no retry policies: a failed node fails the
//     run, and Resume (which re-runs only the unfinished nodes) is the retry.
//   - StepLimit counts node steps the same for Invoke and Resume; LangGraph's
//     recursion_limit lets a resumed run (which has no input step) take two
//     more.
//   - UpdateState with an empty asNode keeps the checkpoint's pending tasks
//     instead of inferring the node that wrote last; name the node to have
//     its edges decide what runs next.
//   - Snapshot.Interrupts lists only questions still open, so a UI reloading
//     a thread shows exactly what needs an answer; LangGraph's history also
//     shows interrupts of its step that were answered since.
//   - Command.ResumeMap with an id no pending interrupt has is an error
//     (ErrNoInterrupt); LangGraph ignores it and leaves the run waiting.
//   - Replaying from an older checkpoint first writes a "fork" checkpoint, so
//     the replay's branch has a head the next Resume continues from, and
//     nodes and interrupts after it run afresh rather than reusing answers.
//   - A panicking node is an error of that node, not a crashed app.
//
// Nothing here knows about models or tools; backend/agent builds on it, and
// backend/graph/sqlitesaver stores checkpoints in the app's SQLite database.
package graph

import { A2A_ERROR_CODE, A2aFailure } from "./a2a-errors.js";

const refusal = (rpcCode: number, message: string) => () => new A2aFailure(rpcCode, message);
const unsupported = (why: string) => refusal(A2A_ERROR_CODE.UNSUPPORTED_OPERATION, why);
const noPush = refusal(
  A2A_ERROR_CODE.PUSH_NOTIFICATION_NOT_SUPPORTED,
  "push notifications are off (capabilities.pushNotifications is false)",
);

/**
 * Every A2A v1.0 method but `SendMessage`, and how this agent refuses it. It answers each call
 * with a Message and keeps no task, so a task id names nothing here; streaming, push and the
 * extended card are off in the card. Where A2A defines an error for the exact case (push
 * notifications, the extended card) it is that one, else "unsupported operation".
 */
export const REFUSED_METHODS: ReadonlyMap<string, () => A2aFailure> = new Map(
  Object.entries({
    GetTask: refusal(
      A2A_ERROR_CODE.TASK_NOT_FOUND,
      "no such task: this agent answers with messages and keeps no tasks",
    ),
    CancelTask: unsupported("this agent keeps no tasks to cancel: every SendMessage is answered when it returns"),
    ListTasks: unsupported("this agent keeps no tasks to list: every SendMessage is answered when it returns"),
    SendStreamingMessage: unsupported("streaming is off (capabilities.streaming is false): call SendMessage"),
    SubscribeToTask: unsupported("streaming is off (capabilities.streaming is false) and this agent keeps no tasks"),
    CreateTaskPushNotificationConfig: noPush,
    GetTaskPushNotificationConfig: noPush,
    ListTaskPushNotificationConfigs: noPush,
    DeleteTaskPushNotificationConfig: noPush,
    GetExtendedAgentCard: refusal(
      A2A_ERROR_CODE.EXTENDED_CARD_NOT_CONFIGURED,
      "there is no extended card: the public card at /.well-known/agent-card.json is the whole card",
    ),
  }),
);

/** v0.3's names (`message/send`, `tasks/get`, …): recognised to say what to send instead. */
export const isV03MethodName = (method: string) => /^(message|tasks|agent)\//.test(method);

// A second, independent implementation of the commands extension v1, on the official A2A
// JavaScript SDK. The Python demo agent and this one must agree on everything the spec says;
// the tests check both with th-ext and parse what this one serves with the Python SDK.
//
// Usage: node agent.js [--port N]   (binds 127.0.0.1; port 0, the default, picks a free port)
// The first line on stdout is the base URL, e.g. "http://127.0.0.1:41234".

import http from "node:http";
import { randomUUID } from "node:crypto";
import express from "express";
import { AGENT_CARD_PATH, Role, TaskState } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from "@a2a-js/sdk/server/express";

const HOST = "127.0.0.1";
const COMMANDS_URI = "https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1";
const JSONRPC_PATH = "/a2a/jsonrpc";
const REST_PATH = "/a2a/rest";

// The registered commands, in the order the card lists them.
const COMMANDS = [
  { name: "model", description: "Show or choose this task's model", argument_hint: "[<model>]" },
  { name: "help", description: "List the commands this agent offers", argument_hint: "" },
  {
    name: "review",
    description: "Start a review of the conversation as a sub-task",
    argument_hint: "<focus>",
  },
];
const COMMAND_NAMES = new Set(COMMANDS.map((command) => command.name));

const MODELS = ["balanced", "fast", "thorough"];
const DEFAULT_MODEL = "balanced";
const STYLES = {
  balanced: "Here is a balanced answer",
  fast: "Quick answer",
  thorough: "Here is a thorough answer, considered from every side",
};

// ASCII whitespace as the spec defines it: space, tab, LF, CR, FF, VT.
const ASCII_WHITESPACE = " \t\n\r\f\v";

function stripAscii(text) {
  let start = 0;
  let end = text.length;
  while (start < end && ASCII_WHITESPACE.includes(text[start])) start += 1;
  while (end > start && ASCII_WHITESPACE.includes(text[end - 1])) end -= 1;
  return text.slice(start, end);
}

/** The command a message runs, as {name, args}, or null for an ordinary message. */
export function parseCommand(message) {
  const parts = message?.parts ?? [];
  if (parts.length !== 1 || parts[0].content?.$case !== "text") return null;
  const text = parts[0].content.value;
  if (!text.startsWith("/")) return null;
  let end = 1;
  while (end < text.length && !ASCII_WHITESPACE.includes(text[end])) end += 1;
  const name = text.slice(1, end);
  if (!COMMAND_NAMES.has(name)) return null;
  return { name, args: stripAscii(text.slice(end)) };
}

function agentMessage(text, taskId, contextId, metadata) {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

function status(state, message) {
  return { state, message, timestamp: new Date().toISOString() };
}

function statusUpdate(taskId, contextId, state, message, metadata) {
  return AgentEvent.statusUpdate({ taskId, contextId, status: status(state, message), metadata });
}

/** The stand-in model: a deterministic answer that names the task's model. */
function standInAnswer(model, text) {
  const style = STYLES[model] ?? STYLES[DEFAULT_MODEL];
  return `[${model}] ${style} to ${JSON.stringify(text)}.`;
}

class CommandsAgentExecutor {
  constructor(taskStore) {
    this.taskStore = taskStore;
    this.models = new Map();
  }

  async execute(requestContext, eventBus) {
    const message = requestContext.userMessage;
    const { taskId, contextId } = requestContext;
    // A stream begins with the Task: a new one, or the current snapshot of an existing one.
    const task = requestContext.task ?? {
      id: taskId,
      contextId,
      status: status(TaskState.TASK_STATE_SUBMITTED, undefined),
      artifacts: [],
      history: [message],
      metadata: undefined,
    };
    eventBus.publish(AgentEvent.task(task));
    const call = parseCommand(message);
    if (call === null) {
      this.answer(message, taskId, contextId, eventBus);
    } else {
      await this.runCommand(call, task, requestContext, eventBus);
    }
    eventBus.finished();
  }

  async cancelTask(taskId, eventBus) {
    eventBus.publish(statusUpdate(taskId, "", TaskState.TASK_STATE_CANCELED, undefined, undefined));
    eventBus.finished();
  }

  /** An ordinary message: the stand-in model answers, then the task waits for input. */
  answer(message, taskId, contextId, eventBus) {
    const text = message.parts
      .filter((part) => part.content?.$case === "text")
      .map((part) => part.content.value)
      .join(" ");
    eventBus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_WORKING));
    const reply = agentMessage(standInAnswer(this.modelFor(taskId), text), taskId, contextId);
    eventBus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, reply));
  }

  /** A command: one status update in the task's current state, carrying the reply. */
  async runCommand(call, task, requestContext, eventBus) {
    const metadata = { command: call.name };
    let text;
    if (call.name === "model") {
      text = this.chooseModel(call.args, task.id);
    } else if (call.name === "help") {
      text = helpText();
    } else {
      const subTaskId = await this.startReview(task, call.args, requestContext);
      metadata.task_ref = subTaskId;
      text = `Started a review of this conversation as task ${subTaskId}.`;
    }
    // The command metadata goes on the message, the event, or both (--metadata-on).
    const onMessage = METADATA_ON !== "event" ? { ...metadata } : undefined;
    const onEvent = METADATA_ON !== "message" ? metadata : undefined;
    const reply = agentMessage(text, task.id, task.contextId, onMessage);
    eventBus.publish(statusUpdate(task.id, task.contextId, task.status.state, reply, onEvent));
  }

  modelFor(taskId) {
    return this.models.get(taskId) ?? DEFAULT_MODEL;
  }

  chooseModel(args, taskId) {
    const current = this.modelFor(taskId);
    const choices = MODELS.join(", ");
    if (args === "") return `Model for this task: ${current}. Choose one of: ${choices}.`;
    if (!MODELS.includes(args)) {
      return `Unknown model ${JSON.stringify(args)}; choose one of: ${choices}. Still using ${current}.`;
    }
    this.models.set(taskId, args);
    return `Model for this task: ${args} (was: ${current}).`;
  }

  /** Create the review sub-task, completed with its result, where GetTask finds it. */
  async startReview(parent, focus, requestContext) {
    const subTaskId = randomUUID();
    const count = (parent.history?.length ?? 0) + 1;
    const result =
      `Review (${focus || "the whole conversation"}): ${count} message${count === 1 ? "" : "s"} ` +
      "read; the stand-in model found nothing to change.";
    await this.taskStore.save(
      {
        id: subTaskId,
        contextId: parent.contextId,
        status: status(
          TaskState.TASK_STATE_COMPLETED,
          agentMessage(result, subTaskId, parent.contextId),
        ),
        artifacts: [],
        history: [],
        metadata: { parent_task: parent.id },
      },
      requestContext.context,
    );
    return subTaskId;
  }
}

function helpText() {
  const lines = ["Commands:"];
  for (const command of COMMANDS) {
    lines.push(`  ${`/${command.name} ${command.argument_hint}`.trimEnd()}  ${command.description}`);
  }
  return lines.join("\n");
}

function agentCard(baseUrl) {
  return {
    name: "th-ext JS agent",
    description:
      "A tiny-harness agent on the official A2A JavaScript SDK: a stand-in model answers, " +
      "and slash commands run on the harness.",
    version: "1.0.0",
    supportedInterfaces: [
      { url: baseUrl + JSONRPC_PATH, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
      { url: baseUrl + REST_PATH, protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "" },
    ],
    provider: undefined,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: COMMANDS_URI,
          description: "Slash commands run on the harness.",
          required: false,
          params: { commands: COMMANDS },
        },
      ],
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "chat",
        name: "Chat",
        description: "Answers in plain text with a stand-in model.",
        tags: ["chat", "demo"],
        examples: ["What is A2A?", "/model fast", "/help"],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

function buildApp(baseUrl) {
  const taskStore = new InMemoryTaskStore();
  const handler = new DefaultRequestHandler(
    agentCard(baseUrl),
    taskStore,
    new CommandsAgentExecutor(taskStore),
  );
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  const options = { requestHandler: handler, userBuilder: UserBuilder.noAuthentication };
  app.use(JSONRPC_PATH, jsonRpcHandler(options));
  app.use(REST_PATH, restHandler(options));
  return app;
}

function parseMetadataOn(argv) {
  const index = argv.indexOf("--metadata-on");
  const value = index === -1 ? "both" : argv[index + 1];
  if (!["both", "message", "event"].includes(value)) {
    console.error(`agent.js: --metadata-on must be both, message or event, not ${value}`);
    process.exit(2);
  }
  return value;
}

const METADATA_ON = parseMetadataOn(process.argv.slice(2));

function parsePort(argv) {
  const index = argv.indexOf("--port");
  const value = index === -1 ? "0" : argv[index + 1];
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`agent.js: --port must be an integer from 0 to 65535, not ${value}`);
    process.exit(2);
  }
  return port;
}

const server = http.createServer();
server.listen(parsePort(process.argv.slice(2)), HOST, () => {
  const baseUrl = `http://${HOST}:${server.address().port}`;
  server.on("request", buildApp(baseUrl));
  console.log(baseUrl);
});
// Nothing is kept but memory, so a stop request ends the process at once, open streams too.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => process.exit(0));
}

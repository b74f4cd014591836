// The OpenAI Node SDK against a live Vigia server (tests/openai_api/test_node_sdk.py).
// Reads VIGIA_NODE_CASE (JSON: baseURL, chat {key, model}, tools {key, model}, question,
// toolQuestion) and prints one JSON object with what each call returned.
import OpenAI from "openai";

const spec = JSON.parse(process.env.VIGIA_NODE_CASE);
const sdk = (key) => new OpenAI({ baseURL: spec.baseURL, apiKey: key, maxRetries: 0 });
const out = {};

const chat = sdk(spec.chat.key);
const plain = await chat.chat.completions.create({
  model: spec.chat.model,
  messages: [{ role: "user", content: spec.question }],
});
out.plain = {
  content: plain.choices[0].message.content,
  finish: plain.choices[0].finish_reason,
  usage: plain.usage,
  status: plain.sherlock.status,
};

const stream = await chat.chat.completions.create({
  model: spec.chat.model,
  messages: [{ role: "user", content: spec.question }],
  stream: true,
  stream_options: { include_usage: true },
});
const chunks = [];
for await (const chunk of stream) chunks.push(chunk);
const last = chunks[chunks.length - 1];
out.stream = {
  text: chunks.map((c) => c.choices[0]?.delta?.content ?? "").join(""),
  usages: chunks.filter((c) => c.usage).map((c) => c.usage),
  lastChoices: last.choices.length,
  status: last.sherlock?.status ?? null,
};

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather of a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    parse: JSON.parse,
    function: ({ city }) => `Soleado en ${city}, 22 grados`,
  },
};
const tools = sdk(spec.tools.key);
for (const streamed of [false, true]) {
  const runner = tools.chat.completions.runTools({
    model: spec.tools.model,
    messages: [{ role: "user", content: spec.toolQuestion }],
    tools: [weather],
    ...(streamed ? { stream: true } : {}),
  });
  const answer = await runner.finalChatCompletion();
  out[streamed ? "runToolsStream" : "runTools"] = {
    content: answer.choices[0].message.content,
    roles: runner.messages.map((m) => m.role),
    status: answer.sherlock?.status ?? null,
  };
}

console.log(JSON.stringify(out));

// A CommonJS program: require() loads each package's CommonJS build (dist/index.cjs).
const { Runtime } = require('@weft/core');
const { ChatPlugin } = require('@weft/plugin-chat');
const {
  InMemoryMemoryProvider,
  ScriptedModelProvider,
} = require('@weft/testing');

// CommonJS has no top-level await: the program runs in an async function.
async function main() {
  const runtime = await Runtime.init({
    models: [
      new ScriptedModelProvider({
        fallback: (_messages, request) =>
          request.purpose === 'plan'
            ? { steps: [{ pluginId: 'chat', action: 'reply' }] }
            : 'Hello from CommonJS!',
      }),
    ],
    memory: new InMemoryMemoryProvider(),
    // A local demo: the client names its user itself (see the HTTP chat page to authenticate).
    plugins: [new ChatPlugin({ trustClientUser: true })],
    options: { server: { port: 0 } },
  });
  await runtime.start();
  try {
    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ room: 'r1', user: 'ada', message: 'Hi' }),
    });
    console.log(JSON.stringify(await response.json()));
  } finally {
    await runtime.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

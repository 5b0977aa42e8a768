/** Posts a chat message to a running agent, as the generated README's curl line does. */
export async function postMessage(
  url: string,
  body: unknown,
): Promise<{ status: number; body: { status?: string; reply?: string; error?: string } }> {
  const response = await fetch(`${url}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as never };
}

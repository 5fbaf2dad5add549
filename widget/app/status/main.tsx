/** The operator's status page at `/`: what this Payframe instance serves and whether its database answers. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './style.css';

interface Health {
  status: string;
  database: { kind: string; status: string; latencyMs?: number };
}

function StatusPage() {
  const [health, setHealth] = useState<Health | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    fetch('/healthz')
      .then((r) => r.json() as Promise<Health>)
      .then(setHealth)
      .catch(() => setFailed(true));
  }, []);

  return (
    <>
      <h1>Payframe</h1>
      <p>Hosted payment page, embeddable checkout widget and SOAP Transaction Service.</p>
      <section aria-live="polite" aria-labelledby="health-heading">
        <h2 id="health-heading">Health</h2>
        {failed ? (
          <p role="alert">The health check could not be reached.</p>
        ) : health === null ? (
          <p>Checking…</p>
        ) : (
          <p data-testid="health">
            Service: <strong>{health.status}</strong>. Database ({health.database.kind}):{' '}
            <strong>{health.database.status}</strong>
            {health.database.latencyMs !== undefined ? ` in ${health.database.latencyMs} ms` : ''}.
          </p>
        )}
      </section>
      <h2>Endpoints</h2>
      <ul>
        <li>
          <a href="/TransactionService.asmx">/TransactionService.asmx</a> — the Transaction Service (SOAP 1.1,
          SOAP 1.2, HTTP GET and POST)
        </li>
        <li>
          <a href="/healthz">/healthz</a> — health, with the database round trip
        </li>
      </ul>
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<StatusPage />, root);

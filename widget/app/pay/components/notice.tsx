/** A whole-page state with a heading that takes focus (loading, not found, expired, canceled…). */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Notice({
  title,
  children,
  testId,
}: {
  title: string;
  children?: ComponentChildren;
  testId: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [title]);
  return (
    <section class="pf-notice" data-testid={testId} aria-labelledby={`${testId}-title`}>
      <h2 id={`${testId}-title`} tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {children}
    </section>
  );
}

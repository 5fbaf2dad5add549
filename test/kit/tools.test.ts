import { describe, expect, it } from 'vitest';
import { type ExternalTool, onCi, toolPlan } from './tools.ts';

const tool = (name: string): ExternalTool => ({
  name,
  install: `apt-get install ${name}`,
  present: () => false,
});
const here = tool('here');
const gone = tool('gone');
const present = (t: ExternalTool) => t === here;

describe('toolPlan', () => {
  it('runs a suite whose tools are all here, on CI or not', () => {
    expect(toolPlan([here], present, false)).toEqual({ run: 'all' });
    expect(toolPlan([here], present, true)).toEqual({ run: 'all' });
  });

  it('skips a suite whose tool is missing, saying which and how to install it', () => {
    expect(toolPlan([here, gone], present, false)).toEqual({
      run: 'skip',
      reason: 'gone is missing: apt-get install gone',
    });
  });

  it('fails instead on CI, which installs every tool', () => {
    expect(toolPlan([gone], present, true)).toMatchObject({ run: 'fail', reason: /gone is missing/ });
  });
});

describe('onCi', () => {
  it('is true when CI is set to anything but an empty, "false" or "0" value', () => {
    expect(onCi({ CI: 'true' })).toBe(true);
    expect(onCi({ CI: '1' })).toBe(true);
    for (const CI of [undefined, '', 'false', 'FALSE', '0']) expect(onCi({ CI }), String(CI)).toBe(false);
  });
});

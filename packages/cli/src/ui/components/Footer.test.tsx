import { Box } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { FooterStats } from '../footerStats.js';
import { Footer } from './Footer.js';

const stats: FooterStats = {
  provider: 'openai',
  model: 'gpt-5.4',
  strategy: 'high-density',
  usedTokens: 32_000,
  contextLimit: 128_000,
  reclaimedTokens: 4_200,
  profile: 'lean',
};

describe('Footer', () => {
  it('shows model, strategy, profile, a usage bar with the percentage and density savings', () => {
    const { lastFrame } = render(<Footer stats={stats} width={100} />);
    expect(lastFrame()).toBe(
      'gpt-5.4 · high-density · lean │ ctx ███░░░░░░░░░ 32k/128k 25% │ density −4.2k tokens',
    );
  });

  it('uses two lines on a narrow terminal and never exceeds its width', () => {
    const { lastFrame } = render(
      <Box40>
        <Footer stats={stats} width={40} />
      </Box40>,
    );
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('gpt-5.4 · high-density · lean');
    expect(lines[1]).toContain('32k/128k 25%');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
  });
  it('#13.3 marks --yolo visibly', () => {
    const { lastFrame } = render(<Footer stats={{ ...stats, yolo: true }} width={100} />);
    expect(lastFrame()).toMatch(/^YOLO gpt-5\.4 · high-density/);
    const narrow = render(<Footer stats={{ ...stats, yolo: true }} width={40} />);
    expect(narrow.lastFrame()).toContain('YOLO');
  });
});

function Box40(props: { readonly children: ReactNode }): ReactNode {
  return <Box width={40}>{props.children}</Box>;
}

/** Query keys of the content shown on the discover page (shared with the video pages). */
export const discoverKeys = {
  carousel: ['content', 'carousel'] as const,
  allowance: ['content', 'videoAllowance'] as const,
};

// The test host: a small VitePress site with the shape of tiny-harness's docs (base
// /tiny-harness/, clean URLs, local search, the default theme), into whose built dist/ the
// tests put the extension pages, as tiny-harness's docs workflow does.
import { defineConfig } from 'vitepress'

export default defineConfig({
  title: 'tiny-harness',
  description: 'A harness for agents that speak A2A.',
  base: '/tiny-harness/',
  cleanUrls: true,
  lang: 'en-US',
  // Builds of one commit must be byte-identical; no date from git.
  lastUpdated: false,
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Guide', link: '/guide' },
      { text: 'A2A', link: '/a2a/extensions' },
      { text: 'Extensions', link: '/a2a/ext/', target: '_self' },
    ],
    sidebar: [
      {
        text: 'A2A extensions',
        items: [
          { text: 'Overview', link: '/a2a/extensions' },
          { text: 'task/v1', link: '/a2a/ext/task/v1' },
          { text: 'channel/v1', link: '/a2a/ext/channel/v1' },
        ],
      },
    ],
  },
})

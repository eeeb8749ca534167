/**
 * Fixed word lists for the catalogue generator. `COMMON_WORDS` take the first Zipf ranks (in this
 * order), so that a few terms (tab, dark, block, theme…) match a large share of the catalogue, as in
 * shared/notes/search-limits.md; pseudo-words fill the long tail.
 */

// prettier-ignore
export const COMMON_WORDS: readonly string[] = [
  'tab', 'dark', 'block', 'theme', 'search', 'password', 'video', 'download', 'privacy', 'page',
  'web', 'new', 'simple', 'mode', 'youtube', 'manager', 'color', 'tool', 'light', 'blocker',
  'quick', 'night', 'screen', 'easy', 'google', 'bookmark', 'translate', 'image', 'custom', 'text',
  'reader', 'music', 'free', 'link', 'window', 'button', 'style', 'auto', 'social', 'blue',
  'open', 'save', 'tracker', 'history', 'context', 'menu', 'site', 'ads', 'cookie', 'notes',
  'secure', 'fast', 'better', 'smart', 'clean', 'mail', 'news', 'weather', 'clock', 'calendar',
  'shopping', 'price', 'coupon', 'game', 'sound', 'volume', 'speed', 'player', 'photo', 'zoom',
  'font', 'translator', 'dictionary', 'spell', 'language', 'proxy', 'vpn', 'script', 'user', 'developer',
  'json', 'cache', 'tabs', 'sidebar', 'toolbar', 'group', 'session', 'sync', 'backup', 'export',
  'import', 'copy', 'paste', 'clipboard', 'screenshot', 'capture', 'record', 'stream', 'twitch', 'reddit',
  'twitter', 'facebook', 'github', 'wikipedia', 'amazon', 'ebay', 'netflix', 'spotify', 'chat', 'email',
  'inbox', 'focus', 'timer', 'pomodoro', 'productivity', 'work', 'study', 'learn', 'kids', 'parental',
  'filter', 'tracking', 'fingerprint', 'container', 'identity', 'account', 'login', 'form', 'fill', 'generator',
  'random', 'keyboard', 'shortcut', 'mouse', 'gesture', 'scroll', 'smooth', 'print', 'pdf', 'viewer',
  'editor', 'code', 'inspect', 'debug', 'css', 'html', 'javascript', 'api', 'request', 'header',
  'agent', 'switcher', 'switch', 'toggle', 'enable', 'disable', 'hide', 'show', 'remove', 'delete',
  'close', 'restore', 'reload', 'refresh', 'update', 'notify', 'notification', 'alert', 'badge', 'counter',
  'count', 'word', 'highlight', 'select', 'find', 'replace', 'regex', 'pattern', 'rule', 'list',
  'white', 'black', 'red', 'green', 'purple', 'pink', 'orange', 'yellow', 'gray', 'gold',
  'silver', 'ocean', 'forest', 'mountain', 'sky', 'sunset', 'sunrise', 'moon', 'star', 'space',
  'galaxy', 'planet', 'earth', 'flower', 'rose', 'autumn', 'winter', 'spring', 'summer', 'snow',
  'rain', 'storm', 'fire', 'ice', 'water', 'wave', 'beach', 'city', 'street', 'road',
  'car', 'cat', 'dog', 'bird', 'fox', 'panda', 'wolf', 'tiger', 'lion', 'dragon',
  'anime', 'cartoon', 'retro', 'vintage', 'minimal', 'modern', 'classic', 'elegant', 'cute', 'cool',
  'pastel', 'neon', 'gradient', 'abstract', 'pixel', 'art', 'paint', 'design', 'pattern', 'solid',
  'glass', 'metal', 'wood', 'paper', 'stone', 'crystal', 'diamond', 'heart', 'love', 'happy',
  'holiday', 'christmas', 'halloween', 'valentine', 'birthday', 'party', 'team', 'football', 'soccer', 'basketball',
  'baseball', 'hockey', 'tennis', 'golf', 'racing', 'sport', 'club', 'fan', 'world', 'cup',
  'map', 'location', 'travel', 'flight', 'hotel', 'train', 'time', 'zone', 'date', 'day',
  'week', 'month', 'year', 'daily', 'reminder', 'task', 'todo', 'project', 'board', 'kanban',
  'wallet', 'crypto', 'bitcoin', 'stock', 'market', 'money', 'bank', 'tax', 'invoice', 'budget',
  'recipe', 'food', 'coffee', 'tea', 'health', 'fitness', 'yoga', 'sleep', 'calm', 'relax',
  'reading', 'book', 'library', 'article', 'blog', 'feed', 'rss', 'podcast', 'radio', 'tv',
  'movie', 'film', 'subtitle', 'lyrics', 'karaoke', 'audio', 'equalizer', 'bass', 'boost', 'booster',
];

/** English function words mixed into descriptions (ignored by the `english` text search configuration). */
// prettier-ignore
export const FILLER_WORDS: readonly string[] = [
  'the', 'and', 'for', 'with', 'your', 'you', 'this', 'that', 'to', 'of', 'in', 'on', 'a', 'an', 'it',
  'is', 'are', 'all', 'any', 'from', 'by', 'or', 'can', 'will', 'more', 'when', 'while', 'into', 'just',
  'every', 'each', 'also', 'only', 'than', 'then', 'so', 'at', 'as', 'be', 'one',
];

/** WebExtension permissions an extension's file may request. */
// prettier-ignore
export const PERMISSIONS: readonly string[] = [
  'storage', 'tabs', 'activeTab', '<all_urls>', 'contextMenus', 'notifications', 'webRequest',
  'webRequestBlocking', 'cookies', 'downloads', 'history', 'bookmarks', 'clipboardWrite', 'alarms',
  'scripting', 'webNavigation', 'sessions', 'identity', 'nativeMessaging', 'privacy', 'proxy',
  'https://*/*', 'http://*/*', 'menus', 'unlimitedStorage', 'management', 'topSites', 'theme',
];

/** Language names for dictionaries and language packs. */
// prettier-ignore
export const LANGUAGES: readonly string[] = [
  'English', 'German', 'French', 'Spanish', 'Italian', 'Portuguese', 'Dutch', 'Swedish', 'Danish',
  'Norwegian', 'Finnish', 'Polish', 'Czech', 'Slovak', 'Hungarian', 'Romanian', 'Bulgarian', 'Greek',
  'Turkish', 'Russian', 'Ukrainian', 'Serbian', 'Croatian', 'Slovenian', 'Estonian', 'Latvian',
  'Lithuanian', 'Icelandic', 'Irish', 'Welsh', 'Basque', 'Catalan', 'Galician', 'Breton', 'Esperanto',
  'Latin', 'Hebrew', 'Arabic', 'Persian', 'Hindi', 'Bengali', 'Tamil', 'Vietnamese', 'Indonesian',
  'Malay', 'Afrikaans', 'Swahili',
];

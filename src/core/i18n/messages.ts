import { DEFAULT_LOCALE } from './locales.js';

/**
 * User-facing messages that the original localises. English is the reference; a locale without
 * a translation falls back to its base language, then to English.
 */
const catalogue = {
  readOnly: {
    'en-US':
      "Some features are temporarily disabled while we perform website maintenance. We'll be back to full capacity shortly.",
    de: 'Einige Funktionen sind während Wartungsarbeiten an der Website vorübergehend deaktiviert. Wir sind in Kürze wieder voll verfügbar.',
    fr: 'Certaines fonctionnalités sont temporairement désactivées pendant la maintenance du site. Nous serons bientôt de retour à pleine capacité.',
    es: 'Algunas funciones están desactivadas temporalmente mientras realizamos tareas de mantenimiento del sitio web. Volveremos a estar a pleno rendimiento en breve.',
    it: 'Alcune funzioni sono temporaneamente disattivate durante la manutenzione del sito. Torneremo presto a pieno regime.',
    'pt-BR':
      'Alguns recursos estão temporariamente desativados enquanto fazemos a manutenção do site. Voltaremos à capacidade total em breve.',
    nl: 'Sommige functies zijn tijdelijk uitgeschakeld terwijl we onderhoud aan de website uitvoeren. We zijn binnenkort weer volledig beschikbaar.',
    ja: 'ウェブサイトのメンテナンス中のため、一部の機能を一時的に停止しています。まもなく完全に復旧します。',
  },
} satisfies Record<string, Record<string, string>>;

export type MessageKey = keyof typeof catalogue;

export function t(key: MessageKey, locale: string = DEFAULT_LOCALE): string {
  const entries: Record<string, string> = catalogue[key];
  return entries[locale] ?? entries[locale.split('-')[0]] ?? entries[DEFAULT_LOCALE];
}

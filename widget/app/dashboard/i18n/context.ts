/** The dashboard's dictionary for every component. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { english, type I18n } from './index.ts';

export const I18nContext = createContext<I18n>(english);
export const useI18n = (): I18n => useContext(I18nContext);

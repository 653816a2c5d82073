import { atom } from 'jotai';
import type { ManifestPackage } from '../api/app';

/** The update prompt on screen, if any (forced or optional). */
export interface UpdatePromptState {
  kind: 'force' | 'optional';
  pkg: ManifestPackage;
}

export const updatePromptAtom = atom<UpdatePromptState | null>(null);

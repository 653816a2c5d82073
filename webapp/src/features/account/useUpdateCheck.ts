import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../state/toast';
import { updatePromptAtom } from '../../state/appUpdate';
import { decideUpdate, ignoredVersion } from './appUpdate';
import { fetchManifest } from './queries';

/**
 * Runs the update check. On launch (`fromMine` false) an ignored optional version stays
 * quiet and nothing is said when the app is up to date; on the mine page every newer version
 * is offered and an up-to-date app gets the 'latest version' toast.
 */
export function useUpdateCheck() {
  const { t } = useTranslation();
  const setPrompt = useSetAtom(updatePromptAtom);
  return useCallback(
    async (fromMine: boolean): Promise<void> => {
      let manifest;
      try {
        manifest = await fetchManifest();
      } catch (error) {
        if (fromMine) showToast(error instanceof Error && error.message ? error.message : t('api.networkFailed'));
        return;
      }
      const decision = decideUpdate(manifest, ignoredVersion(), fromMine);
      if (decision.kind === 'force' || decision.kind === 'optional') {
        setPrompt({ kind: decision.kind, pkg: decision.pkg });
      } else if (decision.kind === 'latest' && fromMine) {
        showToast(t('appUpdate.latest'));
      }
    },
    [setPrompt, t],
  );
}

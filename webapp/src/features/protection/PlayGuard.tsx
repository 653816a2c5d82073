import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { TAB_PATHS } from '../../navigation/paths';
import { endPlaySession, keepPlaying, nextCheckAt, playSessionStart } from './playSession';
import { protectionKeys, protectionStatusQuery } from './queries';
import { RealityCheck } from './RealityCheck';
import { TodayNet } from './TodayNet';

/** How often the round screen refreshes today's net (bets settle every round). */
const NET_REFRESH_MS = 5_000;

/**
 * Player protection on the round screen: today's net result, and the reality check every N
 * minutes of the play session (N from the responsible-play page; none when it is off).
 */
export function PlayGuard() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = useQuery({ ...protectionStatusQuery, refetchInterval: NET_REFRESH_MS });
  const [since] = useState(() => playSessionStart(Date.now()));
  const [due, setDue] = useState<number | null>(null);
  const minutes = status.data?.realityMinutes ?? 0;

  useEffect(() => {
    if (minutes <= 0 || due !== null) return undefined;
    const tick = (): void => {
      const now = Date.now();
      if (now >= nextCheckAt(since, minutes)) setDue(now);
    };
    tick();
    const timer = window.setInterval(tick, 1_000);
    return () => {
      window.clearInterval(timer);
    };
  }, [minutes, since, due]);

  return (
    <>
      {status.data ? <TodayNet net={status.data.todayNet} /> : null}
      {due !== null ? (
        <RealityCheck
          since={since}
          at={due}
          onKeepPlaying={() => {
            keepPlaying(Date.now());
            setDue(null);
            void queryClient.invalidateQueries({ queryKey: protectionKeys.all });
          }}
          onStop={() => {
            endPlaySession();
            void navigate(TAB_PATHS.find);
          }}
        />
      ) : null}
    </>
  );
}

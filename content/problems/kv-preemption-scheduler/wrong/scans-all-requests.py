# expect: time_limit_exceeded
# Keeps a state per request and, in every step, walks all n requests to find the running
# and arrived ones: O(n) per step, and 10000 requests take about 5000 steps.
def schedule(block_size, num_blocks, max_running, requests):
    n = len(requests)
    state = ["new"] * n  # new | waiting | running | done
    order = [0] * n  # admission stamp (running) or queue position (waiting)
    finish, preempted, generated, held = [-1] * n, [0] * n, [0] * n, [0] * n
    free, done, step, stamp, front, back = num_blocks, 0, 0, 0, 0, 0
    while done < n:
        for r in range(n):
            if state[r] == "new" and requests[r][0] <= step:
                state[r], order[r], back = "waiting", back, back + 1
        running = sorted((order[r], r) for r in range(n) if state[r] == "running")
        running = [r for _, r in running]
        any_preempted = False
        i = 0
        while i < len(running):
            r = running[i]
            need = -(-(requests[r][1] + generated[r]) // block_size) - held[r]
            victim = -1
            while need > free:
                victim = running.pop()
                free += held[victim]
                held[victim] = 0
                preempted[victim] += 1
                front -= 1
                state[victim], order[victim] = "waiting", front
                any_preempted = True
                if victim == r:
                    break
            if victim == r:
                break
            free -= need
            held[r] += need
            generated[r] += 1
            i += 1
        if not any_preempted:
            waiting = sorted((order[r], r) for r in range(n) if state[r] == "waiting")
            for _, r in waiting:
                if len(running) >= max_running:
                    break
                need = -(-(requests[r][1] + generated[r]) // block_size)
                if need > free:
                    break
                stamp += 1
                state[r], order[r] = "running", stamp
                running.append(r)
                free -= need
                held[r] = need
                generated[r] += 1
        for r in running:
            if generated[r] == requests[r][2]:
                finish[r] = step
                free += held[r]
                held[r] = 0
                state[r] = "done"
                done += 1
        step += 1
    return [finish, preempted]
